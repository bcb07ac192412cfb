import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
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
  useChatsStore,
  useMessagesStore,
} from '@messenger/shared';
import { useChatUiStore } from '../chatUiStore';
import { followDeletedMessages } from '../deletedMessages';
import { useUploadsStore } from './uploadsStore';
import { ReplyBar } from './ReplyBar';
import { EditComposer } from './EditComposer';
import { useMentionSuggestions } from './useMentionSuggestions';
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
  // From the first composer on, for the rest of the page: an edit or reply of a chat not on screen is kept too.
  useEffect(followDeletedMessages, []);
  const picker = useRef<HTMLInputElement>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  // Where the caret is, for the @username completion (which looks at what was typed right before it).
  const [caret, setCaret] = useState(0);
  const mentions = useMentionSuggestions(chatId, text, caret);
  const suggestionsId = useId();
  const suggesting = mentions.candidates.length > 0;
  const isGroup = useChatsStore((state) => state.chats.find((chat) => chat.id === chatId)?.chat_type === 'group');
  // Notifications and toasts float above the composer, never over its Send button.
  const area = useRef<HTMLDivElement>(null);
  useBottomInset(area);
  const replyTo = useChatUiStore((state) => state.replyTo[chatId]);
  const setReplyTo = useChatUiStore((state) => state.setReplyTo);
  const editing = useChatUiStore((state) => state.editing[chatId]);
  // An edit that ends (Save, Esc, or its message deleted meanwhile) takes its focused box with it: the message box
  // gets the focus, so typing goes on somewhere and a screen reader keeps its place.
  const wasEditing = useRef(false);
  useEffect(() => {
    const lost = !document.activeElement || document.activeElement === document.body;
    if (wasEditing.current && !editing && lost) box.current?.focus();
    wasEditing.current = editing !== undefined;
  }, [editing]);
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

  const pickMention = (index: number) => {
    const next = mentions.pick(mentions.candidates[index]!);
    setText(next.text);
    setCaret(next.caret);
    requestAnimationFrame(() => box.current?.setSelectionRange(next.caret, next.caret));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (suggesting && !event.nativeEvent.isComposing) {
      // The open list of people to mention takes the arrows, Enter, Tab and Esc.
      const handled = { ArrowDown: () => mentions.move(1), ArrowUp: () => mentions.move(-1), Enter: () => pickMention(mentions.active), Tab: () => pickMention(mentions.active), Escape: () => mentions.dismiss() }[event.key];
      if (handled && !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey) {
        event.preventDefault();
        event.stopPropagation();
        handled();
        return;
      }
    }
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
          {suggesting && (
            <ul id={suggestionsId} role="listbox" className="msg-mention-list" aria-label={t('chat.mentionSuggestions')}>
              {mentions.candidates.map((candidate, index) => (
                <li
                  key={candidate.id}
                  id={`${suggestionsId}-${candidate.id}`}
                  role="option"
                  aria-selected={index === mentions.active}
                  className="msg-mention-option"
                  // Picked on mouse down, before the composer would lose focus.
                  onMouseDown={(event) => {
                    event.preventDefault();
                    pickMention(index);
                  }}
                >
                  <span>{candidate.name}</span> <span className="ui-hint">@{candidate.username}</span>
                </li>
              ))}
            </ul>
          )}
          <textarea
            ref={box}
            aria-label={t('chat.composer')}
            placeholder={t('chat.composer')}
            value={text}
            rows={1}
            aria-autocomplete={isGroup ? 'list' : undefined}
            aria-controls={suggesting ? suggestionsId : undefined}
            aria-activedescendant={suggesting ? `${suggestionsId}-${mentions.candidates[mentions.active]!.id}` : undefined}
            onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
            onChange={(event) => {
              const next = clampCharacters(event.target.value, config.textMax);
              setCaret(event.target.selectionStart);
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
