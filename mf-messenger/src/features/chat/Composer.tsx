import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { config, sendText } from '@messenger/shared';

/** How many characters before the limit the counter appears. */
const COUNTER_FROM = 500;

/** The message box: Enter sends, Shift+Enter breaks the line, at most 10 000 characters (spec §5). */
export function Composer({ chatId }: { chatId: number }) {
  const { t } = useTranslation('messenger');
  const [text, setText] = useState('');
  const trimmed = text.trim();
  const left = config.textMax - text.length;

  const send = (event?: FormEvent) => {
    event?.preventDefault();
    if (!trimmed || text.length > config.textMax) return;
    sendText(chatId, trimmed);
    setText('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) send(event);
  };

  return (
    <form className="msg-composer" onSubmit={send}>
      <textarea
        aria-label={t('chat.composer')}
        placeholder={t('chat.composer')}
        value={text}
        maxLength={config.textMax}
        rows={1}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        aria-describedby={left <= COUNTER_FROM ? 'composer-left' : undefined}
      />
      {left <= COUNTER_FROM && (
        <span id="composer-left" className="msg-composer-left">
          {t('chat.charactersLeft', { count: left })}
        </span>
      )}
      <button type="submit" className="ui-button ui-button-primary" disabled={!trimmed}>
        {t('chat.send')}
      </button>
    </form>
  );
}
