import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDetailedTime, formatMessageTime, retrySend, useSettingsStore, type ChatMessage } from '@messenger/shared';

interface MessageBubbleProps {
  message: ChatMessage;
  own: boolean;
  /** Sender name, shown above others' messages in groups. */
  sender?: string;
}

/** One message. Text is rendered as text — never as HTML — so nothing anyone writes can run in the page. */
export const MessageBubble = memo(function MessageBubble({ message, own, sender }: MessageBubbleProps) {
  const language = useSettingsStore((state) => state.language);
  return (
    <div className={own ? 'msg-bubble-row msg-own' : 'msg-bubble-row'}>
      <div className="msg-bubble" data-state={message.state}>
        {sender && <span className="msg-bubble-sender">{sender}</span>}
        <p className="msg-bubble-text">{message.text}</p>
        <span className="msg-bubble-meta">
          <time dateTime={message.created_at} title={formatDetailedTime(message.created_at, language)}>
            {formatMessageTime(message.created_at, language)}
          </time>
          {own && <SendState message={message} />}
        </span>
      </div>
    </div>
  );
});

function SendState({ message }: { message: ChatMessage }) {
  const { t } = useTranslation('messenger');
  if (message.state === 'sending') {
    return (
      <span className="msg-state" role="status" aria-label={t('chat.sending')}>
        🕓
      </span>
    );
  }
  if (message.state === 'failed') {
    return (
      <span className="msg-state msg-state-failed">
        <span role="alert" title={message.error}>
          {t('chat.failed')}
        </span>
        <button type="button" className="msg-retry" onClick={() => retrySend(message)}>
          {t('chat.retry')}
        </button>
      </span>
    );
  }
  return (
    <span className="msg-state" role="img" aria-label={t('chat.sent')}>
      ✓
    </span>
  );
}
