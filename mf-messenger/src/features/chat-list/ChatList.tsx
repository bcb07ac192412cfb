import { useEffect } from 'react';
import { NavLink, useNavigate } from '@messenger/router';
import { useTranslation } from 'react-i18next';
import { Avatar, Shortcuts, formatListTime, matchesShortcut, modalOpen, useAuthStore, useChatsStore, useDraftText, useSettingsStore } from '@messenger/shared';
import { useChatRows, type ChatRowModel } from './useChatRows';
import { messagePreview } from './preview';
import { useTypingLabel } from '../chat/header/useTypingLabel';

/** Spec §2 chat list: avatar, group mark, name, time of the last message, preview and unread count. */
export function ChatList() {
  const { t } = useTranslation('messenger');
  const { rows, loaded, searching } = useChatRows();
  useChatSwitchKeys(rows);
  if (!loaded) return <p className="ui-empty">{t('common:loading')}</p>;
  if (rows.length === 0) return <p className="ui-empty">{searching ? t('chats.nothingFound') : t('chats.empty')}</p>;
  return (
    <ul className="msg-list" aria-label={t('chats.listLabel')}>
      {rows.map((row) => (
        <li key={row.chat.id}>
          <ChatRow row={row} />
        </li>
      ))}
    </ul>
  );
}

function ChatRow({ row }: { row: ChatRowModel }) {
  const { t } = useTranslation('messenger');
  const language = useSettingsStore((state) => state.language);
  const me = useAuthStore((state) => state.user?.id);
  const { chat, name, avatar } = row;
  const last = chat.last_message;
  const typing = useTypingLabel(chat.id);
  // What I left unsent in a chat I am not looking at shows instead of its last message (Telegram's "Draft:").
  const draft = useDraftText(me, chat.id).trim();
  const open = useChatsStore((state) => state.activeChatId === chat.id);
  const preview = last
    ? last.sender_id === me
      ? t('chats.you', { text: messagePreview(last) })
      : messagePreview(last)
    : chat.last_message_deleted
      ? t('chat.deletedMessage')
      : t('chats.noMessages');
  return (
    <NavLink to={`/${chat.id}`} className="msg-row">
      <Avatar name={name} path={avatar} group={chat.chat_type === 'group'} />
      <span className="msg-row-main">
        <span className="msg-row-top">
          <span className="msg-row-name">{name}</span>
          <time className="msg-row-time" dateTime={chat.last_message_at ?? chat.created_at}>
            {formatListTime(chat.last_message_at, language)}
          </time>
        </span>
        <span className="msg-row-bottom">
          {typing ? (
            <span className="msg-row-preview msg-typing">{typing}</span>
          ) : draft && !open ? (
            <span className="msg-row-preview">
              <span className="msg-draft-label">{t('chats.draft')}</span> {draft}
            </span>
          ) : (
            <span className="msg-row-preview">{preview}</span>
          )}
          {chat.unread_mentions > 0 && (
            <span className="msg-badge" role="img" aria-label={t('chats.mentioned')} title={t('chats.mentioned')}>
              @
            </span>
          )}
          {chat.unread_messages > 0 && (
            // A role, so that its label is what a screen reader says of it (a label on a plain span is ignored).
            <span className="msg-badge" role="img" aria-label={t('chats.unread', { count: chat.unread_messages })}>
              {chat.unread_messages}
            </span>
          )}
        </span>
      </span>
    </NavLink>
  );
}

/** Alt+↑ / Alt+↓ open the chat above or below the open one, in the list as it shows (search included). */
function useChatSwitchKeys(rows: ChatRowModel[]): void {
  const navigate = useNavigate();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const step = matchesShortcut(event, Shortcuts.nextChat) ? 1 : matchesShortcut(event, Shortcuts.previousChat) ? -1 : 0;
      if (step === 0 || rows.length === 0 || modalOpen()) return;
      event.preventDefault();
      const active = useChatsStore.getState().activeChatId;
      const index = rows.findIndex((row) => row.chat.id === active);
      const next = index === -1 ? (step > 0 ? 0 : rows.length - 1) : Math.min(rows.length - 1, Math.max(0, index + step));
      if (rows[next]!.chat.id !== active) navigate(`/${rows[next]!.chat.id}`);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [rows, navigate]);
}
