import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar, Modal, config } from '@messenger/shared';
import { useRinging } from '../sounds/ringing';
import type { IncomingCallView } from '../call-window/types';

export interface IncomingCallModalProps {
  call: IncomingCallView;
  /** The person's sound setting: the ringtone plays only when it is on. */
  soundEnabled: boolean;
  onAccept(): void;
  onReject(): void;
  /** Nobody answered within 60 s (spec §9); the modal does not close itself, the caller unmounts it. */
  onTimeout(): void;
}

/**
 * The incoming call (spec §2 and §4): who calls, Accept and Decline, the looping ringtone while it is shown (if
 * sound is on), and a timeout after 60 s. An alert dialog: focus moves to the dialog itself rather than to a
 * button, so a keystroke meant for the chat cannot answer the call; Tab stays inside it (the shared modal is a
 * native modal dialog), Escape declines.
 */
export function IncomingCallModal({ call, soundEnabled, onAccept, onReject, onTimeout }: IncomingCallModalProps) {
  const { t } = useTranslation('calls');
  const textId = useId();
  // The latest callbacks, so a parent's re-render does not restart the timeout.
  const handlers = useRef({ onTimeout });
  useEffect(() => {
    handlers.current = { onTimeout };
  }, [onTimeout]);

  useRinging('incoming', soundEnabled);

  useEffect(() => {
    const timer = setTimeout(() => handlers.current.onTimeout(), config.incomingCallAutoCloseMs);
    return () => clearTimeout(timer);
  }, [call.chatId]);

  const isGroup = call.chatType === 'group';
  const text = isGroup ? t('incoming.group', { name: call.callerName, group: call.title }) : t('incoming.private', { name: call.callerName || call.title });

  // The shared modal as an alert dialog: focus on the dialog itself, the page behind inert, Escape declines.
  return (
    <Modal
      title={t('incoming.title')}
      onClose={onReject}
      alert
      describedBy={textId}
      closeIcon={false}
      className="calls-incoming"
      titleClassName="calls-incoming-title"
    >
      <div className="calls-incoming-who">
        <span className="calls-incoming-avatar">
          <Avatar name={call.title} path={call.avatar} size={88} group={isGroup} />
        </span>
        <p id={textId} className="calls-incoming-text">
          {text}
        </p>
      </div>
      <div className="calls-incoming-actions">
        <button type="button" className="ui-button ui-button-danger calls-incoming-decline" onClick={() => onReject()}>
          {t('incoming.decline')}
        </button>
        <button type="button" className="ui-button calls-incoming-accept" onClick={() => onAccept()}>
          {t('incoming.accept')}
        </button>
      </div>
    </Modal>
  );
}
