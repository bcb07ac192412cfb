import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Avatar, chatDisplay, useAuthStore, useContactsStore, useUsersStore, type Chat } from '@messenger/shared';

export function ChatHeader({ chat }: { chat: Chat }) {
  const { t } = useTranslation('messenger');
  const me = useAuthStore((state) => state.user?.id ?? 0);
  const contacts = useContactsStore((state) => state.contacts);
  const profiles = useUsersStore((state) => state.profiles);
  const { name, avatar } = chatDisplay(chat, me, contacts, profiles);
  return (
    <header className="msg-chat-header">
      <Link to="/" className="msg-back" aria-label={t('chat.back')}>
        ‹
      </Link>
      <Avatar name={name} src={avatar} size={40} group={chat.chat_type === 'group'} />
      <div className="msg-chat-title">
        <h2 id="chat-title">{name}</h2>
        <span className="msg-chat-subtitle">
          {chat.chat_type === 'private' ? t('chat.privateChat') : t('chat.members', { count: chat.participants.length })}
        </span>
      </div>
    </header>
  );
}
