import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ApiError,
  chatsApi,
  characterCount,
  clampCharacters,
  config,
  errorText,
  useMessagesStore,
  useSubmit,
  type ChatMessage,
} from '@messenger/shared';
import { useChatUiStore } from '../chatUiStore';
import { messageGone } from '../deletedMessages';

/**
 * The composer while one of my messages is being edited: its text to change, Enter (or Save) to store it, Esc (or
 * the ×) to leave it as it was. What was being written before waits in the chat's draft and comes back after.
 */
export function EditComposer({ chatId, message }: { chatId: number; message: ChatMessage }) {
  const { t } = useTranslation('messenger');
  const [text, setText] = useState(message.text);
  const form = useSubmit((failure) => errorText(failure, 'messenger:chat.editFailed'), 'toast');
  const box = useRef<HTMLTextAreaElement>(null);
  const trimmed = text.trim();

  useEffect(() => {
    const field = box.current;
    if (!field) return;
    field.focus();
    field.setSelectionRange(field.value.length, field.value.length);
  }, []);

  const stop = () => useChatUiStore.getState().setEditing(chatId, undefined);

  const save = form.handler(async () => {
    if (!trimmed || characterCount(trimmed) > config.textMax) return;
    if (trimmed === message.text) {
      stop();
      return;
    }
    const stored = await chatsApi.editMessage(message.id, trimmed).catch((failure: unknown) => {
      // Deleted meanwhile, its event not here yet (or it expired): the edit ends and says why, not "not found".
      if (failure instanceof ApiError && failure.code === 'message_not_found') return null;
      throw failure;
    });
    if (!stored) {
      messageGone(chatId, message.id);
      return;
    }
    useMessagesStore.getState().edited(stored);
    stop();
  });

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) save(event);
    if (event.key === 'Escape') {
      // The edit closes, not the panel or dialog behind it.
      event.stopPropagation();
      stop();
    }
  };

  return (
    <>
      <div className="msg-reply-bar" role="group" aria-label={t('chat.editing')}>
        <span className="msg-reply-bar-text">
          <strong>{t('chat.editing')}</strong>
          <span>{message.text}</span>
        </span>
        <button type="button" className="ui-icon-button" aria-label={t('chat.cancelEdit')} onClick={stop}>
          ×
        </button>
      </div>
      <form className="msg-composer" onSubmit={save}>
        <textarea
          ref={box}
          aria-label={t('chat.editBox')}
          value={text}
          rows={1}
          onChange={(event) => setText(clampCharacters(event.target.value, config.textMax))}
          onKeyDown={onKeyDown}
        />
        <button type="submit" className="ui-button ui-button-primary" disabled={form.busy || !trimmed}>
          {t('chat.saveEdit')}
        </button>
      </form>
    </>
  );
}
