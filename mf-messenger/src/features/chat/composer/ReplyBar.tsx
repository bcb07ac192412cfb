import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '@messenger/shared';
import { usePersonName } from '../messages/MessageBubble';

/** Above the composer while answering a message: whom and what, with a way to stop. */
export function ReplyBar({ message, onCancel }: { message: ChatMessage; onCancel: () => void }) {
  const { t } = useTranslation('messenger');
  const author = usePersonName(message.sender_id);
  return (
    <div className="msg-reply-bar" role="group" aria-label={t('chat.replyingTo', { name: author })}>
      <span className="msg-reply-bar-text">
        <strong>{t('chat.replyingTo', { name: author })}</strong>
        <span>{message.type === 'call' ? t('chat.kindCall') : message.text || message.file?.name}</span>
      </span>
      <button type="button" className="ui-icon-button" aria-label={t('chat.cancelReply')} onClick={onCancel}>
        ×
      </button>
    </div>
  );
}
