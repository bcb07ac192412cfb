import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, chatsApi, errorText, useChatsStore, useUsersStore } from '@messenger/shared';
import { ChatHeader } from './ChatHeader';
import { MessageList } from './MessageList';
import { Composer } from './Composer';

/**
 * `/{chat_id}`: the open chat. While it is on screen it is the active chat — its messages count as read — and
 * opening it marks it read on the server.
 */
export function ChatPage({ chatId }: { chatId: number }) {
  const { t } = useTranslation('messenger');
  const chat = useChatsStore((state) => state.chats.find((candidate) => candidate.id === chatId));
  const loaded = useChatsStore((state) => state.loaded);
  const [missing, setMissing] = useState<string | null>(null);

  useEffect(() => {
    useChatsStore.getState().setActive(chatId);
    return () => {
      if (useChatsStore.getState().activeChatId === chatId) useChatsStore.getState().setActive(null);
    };
  }, [chatId]);

  // A chat not (yet) in the list — a link, a fresh chat — is fetched on its own.
  useEffect(() => {
    if (chat || !loaded) return;
    let cancelled = false;
    chatsApi
      .get(chatId)
      .then((fetched) => {
        if (cancelled) return;
        useChatsStore.getState().upsert(fetched);
        void useUsersStore.getState().ensure(fetched.participants);
      })
      .catch((error: unknown) => {
        if (!cancelled) setMissing(error instanceof ApiError && error.status === 404 ? t('chat.unavailable') : errorText(error, 'messenger:chat.loadFailed'));
      });
    return () => {
      cancelled = true;
    };
  }, [chat, chatId, loaded, t]);

  const unread = chat?.unread_messages ?? 0;
  useEffect(() => {
    if (unread > 0 && document.visibilityState === 'visible') void useChatsStore.getState().markRead(chatId).catch(() => undefined);
  }, [chatId, unread]);

  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') void useChatsStore.getState().markRead(chatId).catch(() => undefined);
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [chatId]);

  if (missing) {
    return (
      <div className="msg-chat-missing" role="alert">
        <p>{missing}</p>
      </div>
    );
  }
  if (!chat) return <p className="ui-empty">{t('common:loading')}</p>;
  return (
    <section className="msg-chat" aria-labelledby="chat-title">
      <ChatHeader chat={chat} />
      <MessageList chat={chat} />
      <Composer chatId={chat.id} />
    </section>
  );
}
