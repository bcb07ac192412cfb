import { useCallback, useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Icon,
  Shortcuts,
  canEdit,
  characterCount,
  clampCharacters,
  config,
  drafts,
  matchesShortcut,
  notifyTyping,
  sendMessage,
  useAuthStore,
  useBottomInset,
  useMessagesStore,
} from '@messenger/shared';
import { useChatUiStore } from './chatUiStore';
import { useUploadsStore } from './uploadsStore';
import { ReplyBar } from './ReplyBar';
import { EditComposer } from './EditComposer';
import { UploadProgress } from './UploadProgress';
import { VoiceRecorder } from './VoiceRecorder';

/** How many characters before the limit the counter appears. */
const COUNTER_FROM = 500;
/** A draft is stored once typing pauses this long (and whenever the chat closes or the page goes). */
const DRAFT_SAVE_MS = 300;

/**
 * The chat's unsent text, kept as its draft (drafts in the shared package): what was typed is back after a switch
 * to another chat or a reload.
 */
function useDraft(chatId: number): [string, (text: string) => void] {
  const me = useAuthStore((state) => state.user?.id ?? null);
  const [text, setText] = useState(() => (me === null ? '' : drafts.get(me, chatId)));
  /** A change not stored yet, and whose draft it is. */
  const unsaved = useRef<{ owner: number; text: string } | null>(null);
  const flush = useCallback(() => {
    const change = unsaved.current;
    unsaved.current = null;
    if (change) drafts.set(change.owner, chatId, change.text);
  }, [chatId]);
  useEffect(() => {
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [flush]);
  useEffect(() => {
    const timer = setTimeout(flush, DRAFT_SAVE_MS);
    return () => clearTimeout(timer);
  }, [flush, text]);
  const update = (next: string) => {
    if (me !== null) unsaved.current = { owner: me, text: next };
    setText(next);
  };
  return [text, update];
}

/**
 * The message box: Enter sends, Shift+Enter breaks the line, at most 10 000 characters (spec §5). Files come
 * through the attach button (or a drop on the chat); the microphone records a voice message.
 */
export function Composer({ chatId }: { chatId: number }) {
  const { t } = useTranslation('messenger');
  const [text, setText] = useDraft(chatId);
  const [recording, setRecording] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  // Notifications and toasts float above the composer, never over its Send button.
  const area = useRef<HTMLDivElement>(null);
  useBottomInset(area);
  const replyTo = useChatUiStore((state) => state.replyTo[chatId]);
  const setReplyTo = useChatUiStore((state) => state.setReplyTo);
  const editing = useChatUiStore((state) => state.editing[chatId]);
  const me = useAuthStore((state) => state.user?.id);
  const startUpload = useUploadsStore((state) => state.start);
  const trimmed = text.trim();
  const left = config.textMax - characterCount(text);

  const send = (event?: FormEvent) => {
    event?.preventDefault();
    if (!trimmed || characterCount(trimmed) > config.textMax) return;
    sendMessage({ chatId, text: trimmed, replyTo });
    setReplyTo(chatId, undefined);
    setText('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) send(event);
    if (event.key === 'Escape' && replyTo) setReplyTo(chatId, undefined);
    // ↑ in an empty composer edits my last message that may still be edited.
    if (!text && matchesShortcut(event, Shortcuts.editLast)) {
      const mine = useMessagesStore.getState().threads[chatId]?.messages.findLast((message) => canEdit(message, me));
      if (mine) {
        event.preventDefault();
        useChatUiStore.getState().setEditing(chatId, mine);
      }
    }
  };

  return (
    <div className="msg-composer-area" ref={area}>
      <UploadProgress chatId={chatId} />
      {replyTo && <ReplyBar message={replyTo} onCancel={() => setReplyTo(chatId, undefined)} />}
      {editing ? (
        <EditComposer key={editing.id} chatId={chatId} message={editing} />
      ) : recording ? (
        <VoiceRecorder chatId={chatId} onDone={() => setRecording(false)} />
      ) : (
        <form className="msg-composer" onSubmit={send}>
          <input
            ref={picker}
            type="file"
            multiple
            hidden
            aria-hidden="true"
            tabIndex={-1}
            onChange={(event) => {
              for (const file of event.target.files ?? []) void startUpload(chatId, file);
              event.target.value = '';
            }}
          />
          <button type="button" className="ui-icon-button msg-attach" aria-label={t('chat.attach')} onClick={() => picker.current?.click()}>
            <Icon name="attach" />
          </button>
          <textarea
            aria-label={t('chat.composer')}
            placeholder={t('chat.composer')}
            value={text}
            rows={1}
            onChange={(event) => {
              const next = clampCharacters(event.target.value, config.textMax);
              setText(next);
              // Text being written (not cleared): the others see "… is typing".
              if (next.trim().length > 0) notifyTyping(chatId);
            }}
            onKeyDown={onKeyDown}
            aria-describedby={left <= COUNTER_FROM ? 'composer-left' : undefined}
          />
          {left <= COUNTER_FROM && (
            <span id="composer-left" className="msg-composer-left">
              {t('chat.charactersLeft', { count: left })}
            </span>
          )}
          {trimmed ? (
            <button type="submit" className="ui-button ui-button-primary">
              {t('chat.send')}
            </button>
          ) : (
            <>
              <button type="button" className="ui-icon-button msg-mic" aria-label={t('chat.recordVoice')} onClick={() => setRecording(true)}>
                <Icon name="mic" />
              </button>
              <button type="submit" className="ui-button ui-button-primary" disabled>
                {t('chat.send')}
              </button>
            </>
          )}
        </form>
      )}
    </div>
  );
}
