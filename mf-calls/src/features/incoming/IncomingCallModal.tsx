import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar, config } from '@messenger/shared';
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
 * button, so a keystroke meant for the chat cannot answer the call; Tab stays inside it, Escape declines.
 */
export function IncomingCallModal({ call, soundEnabled, onAccept, onReject, onTimeout }: IncomingCallModalProps) {
  const { t } = useTranslation('calls');
  const titleId = useId();
  const textId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  // The latest callbacks, so a parent's re-render neither restarts the timeout nor the key handling.
  const handlers = useRef({ onReject, onTimeout });
  useEffect(() => {
    handlers.current = { onReject, onTimeout };
  }, [onReject, onTimeout]);

  useRinging('incoming', soundEnabled);

  useEffect(() => {
    const timer = setTimeout(() => handlers.current.onTimeout(), config.incomingCallAutoCloseMs);
    return () => clearTimeout(timer);
  }, [call.chatId]);

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    dialog.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        handlers.current.onReject();
      } else if (event.key === 'Tab') {
        const buttons = [...(dialog.current?.querySelectorAll<HTMLElement>('button') ?? [])];
        const first = buttons[0];
        const last = buttons[buttons.length - 1];
        if (!first || !last) return;
        const active = document.activeElement;
        if (event.shiftKey && (active === first || active === dialog.current)) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && (active === last || !dialog.current?.contains(active))) {
          event.preventDefault();
          first.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      if (previous?.isConnected) previous.focus();
    };
  }, []);

  const isGroup = call.chatType === 'group';
  const text = isGroup ? t('incoming.group', { name: call.callerName, group: call.title }) : t('incoming.private', { name: call.callerName || call.title });

  return (
    <div className="ui-modal-backdrop calls-incoming-backdrop" role="presentation">
      <div
        ref={dialog}
        className="ui-modal calls-incoming"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={textId}
        tabIndex={-1}
      >
        <h2 id={titleId} className="calls-incoming-title">
          {t('incoming.title')}
        </h2>
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
      </div>
    </div>
  );
}
