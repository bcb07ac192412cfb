import { memo, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Icon,
  displayName,
  formatDetailedTime,
  formatMessageTime,
  retrySend,
  useContactsStore,
  useSettingsStore,
  useUsersStore,
  type Chat,
  type ChatMessage,
} from '@messenger/shared';
import { MessageContent, Highlighted } from './MessageContent';
import { MessageActions } from '../actions/MessageActions';
import { MessageReactions } from './MessageReactions';
import { useChatUiStore } from '../chatUiStore';

interface MessageBubbleProps {
  message: ChatMessage;
  chat: Chat;
  own: boolean;
  /** Groups name the sender above others' messages. */
  showSender: boolean;
  highlight?: string | undefined;
  /** Briefly marked: it was just jumped to. */
  flash?: boolean;
}

/** The name of a person as the viewer knows them (their contact alias first). */
export function usePersonName(userId: number): string {
  const contact = useContactsStore((state) => state.contacts.find((candidate) => candidate.id === userId));
  const profile = useUsersStore((state) => state.profiles[userId]);
  return displayName(contact, profile);
}

/**
 * One message: who wrote it (groups), what it forwards or answers, its content, time and send state, and its
 * actions (the ⋯ button, or a right click). Everything written is rendered as text, never as HTML.
 */
export const MessageBubble = memo(function MessageBubble({ message, chat, own, showSender, highlight, flash }: MessageBubbleProps) {
  const { t } = useTranslation('messenger');
  const language = useSettingsStore((state) => state.language);
  const sender = usePersonName(message.sender_id);
  const [menuAt, setMenuAt] = useState<{ x: number; y: number } | null>(null);

  const openMenu = (event: MouseEvent) => {
    event.preventDefault();
    setMenuAt({ x: event.clientX, y: event.clientY });
  };

  return (
    <div className={own ? 'msg-bubble-row msg-own' : 'msg-bubble-row'} data-message-id={message.id}>
      <div className={flash ? 'msg-bubble msg-flash' : 'msg-bubble'} data-state={message.state} onContextMenu={openMenu}>
        {showSender && !own && <span className="msg-bubble-sender">{sender}</span>}
        {message.forwarded_from && (
          <span className="msg-forwarded">{t('chat.forwardedFrom', { name: message.forwarded_from.name || t('chat.someone') })}</span>
        )}
        {message.reply_to && <ReplyQuote chatId={chat.id} reply={message.reply_to} />}
        <MessageContent message={message} />
        {message.text && message.type !== 'call' && (
          <p className="msg-bubble-text">
            <Highlighted text={message.text} query={highlight} />
          </p>
        )}
        <MessageReactions message={message} />
        <span className="msg-bubble-meta">
          {message.expires_at && (
            <span role="img" aria-label={t('chat.autoDeletes')} title={t('chat.autoDeletes')}>
              <Icon name="timer" size={14} />
            </span>
          )}
          {message.edited_at && (
            <span className="msg-edited" title={t('chat.editedAt', { time: formatDetailedTime(message.edited_at, language) })}>
              {t('chat.edited')}
            </span>
          )}
          <time dateTime={message.created_at} title={formatDetailedTime(message.created_at, language)}>
            {formatMessageTime(message.created_at, language)}
          </time>
          {own && <SendState message={message} read={message.state === 'sent' && message.id <= chat.read_by_others_up_to} />}
        </span>
      </div>
      <MessageActions
        message={message}
        chat={chat}
        own={own}
        senderName={sender}
        position={menuAt}
        onOpen={(position) => setMenuAt(position)}
        onClose={() => setMenuAt(null)}
      />
    </div>
  );
});

function ReplyQuote({ chatId, reply }: { chatId: number; reply: NonNullable<ChatMessage['reply_to']> }) {
  const { t } = useTranslation('messenger');
  const author = usePersonName(reply.sender_id);
  const focusMessage = useChatUiStore((state) => state.focusMessage);
  const summary = reply.type === 'call' ? t('chat.kindCall') : reply.text || (reply.file ? reply.file.name : t('chat.deletedMessage'));
  return (
    <button type="button" className="msg-reply-quote" title={t('chat.showOriginal', { name: author })} onClick={() => focusMessage(chatId, reply.id)}>
      <strong>{author}</strong>
      <span>{summary}</span>
    </button>
  );
}

/** Clock while sending, "Not sent" with retry, one tick once stored, two once someone else has read it. */
function SendState({ message, read }: { message: ChatMessage; read: boolean }) {
  const { t } = useTranslation('messenger');
  if (message.state === 'sending') {
    return (
      <span className="msg-state" role="img" aria-label={t('chat.sending')} title={t('chat.sending')}>
        <Icon name="clock" size={14} />
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
  if (read) {
    return (
      <span className="msg-state msg-state-read" role="img" aria-label={t('chat.read')} title={t('chat.read')}>
        <Icon name="checks" size={14} />
      </span>
    );
  }
  return (
    <span className="msg-state" role="img" aria-label={t('chat.sent')}>
      <Icon name="check" size={14} />
    </span>
  );
}
