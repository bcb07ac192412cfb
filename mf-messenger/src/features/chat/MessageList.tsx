import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import {
  displayName,
  useAuthStore,
  useContactsStore,
  useMessagesStore,
  useUsersStore,
  type Chat,
} from '@messenger/shared';
import { MessageBubble } from './MessageBubble';

/** How close to the bottom (px) still counts as "at the bottom", where new messages keep the view pinned. */
const PIN_THRESHOLD = 80;
/** How close to the top (px) starts loading the previous page. */
const LOAD_OLDER_THRESHOLD = 200;

/**
 * The chat's messages, opening at the newest. Scrolling near the top loads the previous page and keeps the
 * view where it was; a new message scrolls into view only if the reader was already at the bottom.
 */
export function MessageList({ chat }: { chat: Chat }) {
  const { t } = useTranslation('messenger');
  const me = useAuthStore((state) => state.user?.id ?? 0);
  const thread = useMessagesStore((state) => state.threads[chat.id]);
  const contacts = useContactsStore((state) => state.contacts);
  const profiles = useUsersStore((state) => state.profiles);
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const anchor = useRef<{ height: number; top: number } | null>(null);

  useEffect(() => {
    void useMessagesStore
      .getState()
      .loadLatest(chat.id)
      .catch(() => undefined);
  }, [chat.id]);

  const loadOlder = useCallback(() => {
    const element = scroller.current;
    const current = useMessagesStore.getState().threads[chat.id];
    if (!element || !current?.hasMore || current.loading) return;
    anchor.current = { height: element.scrollHeight, top: element.scrollTop };
    void useMessagesStore
      .getState()
      .loadOlder(chat.id)
      .catch(() => undefined);
  }, [chat.id]);

  const messages = thread?.messages ?? [];
  const newest = messages.at(-1);

  // After rendering: keep the old messages still when a page is prepended, or stay pinned to the newest.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    if (anchor.current) {
      element.scrollTop = anchor.current.top + (element.scrollHeight - anchor.current.height);
      anchor.current = null;
    } else if (pinned.current || newest?.sender_id === me) {
      element.scrollTop = element.scrollHeight;
    }
  }, [messages.length, newest?.client_id, newest?.sender_id, me]);

  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < PIN_THRESHOLD;
    if (element.scrollTop < LOAD_OLDER_THRESHOLD) loadOlder();
  };

  const showSender = chat.chat_type === 'group';
  return (
    <div className="msg-scroller" ref={scroller} onScroll={onScroll}>
      <div className="msg-messages" role="log" aria-label={t('chat.messages')} aria-live="polite">
        {thread?.loading && <p className="msg-loading-older">{t('chat.loadingOlder')}</p>}
        {thread?.loaded && thread.hasMore && !thread.loading && (
          <button type="button" className="ui-button msg-load-older" onClick={loadOlder}>
            {t('chat.loadOlder')}
          </button>
        )}
        {thread?.error && (
          <p className="ui-error" role="alert">
            {t('chat.loadFailed')}
          </p>
        )}
        {thread?.loaded && messages.length === 0 && <p className="ui-empty">{t('chat.empty')}</p>}
        {messages.map((message) => {
          const own = message.sender_id === me;
          const sender =
            showSender && !own
              ? displayName(
                  contacts.find((contact) => contact.id === message.sender_id),
                  profiles[message.sender_id],
                )
              : undefined;
          return <MessageBubble key={message.client_id} message={message} own={own} sender={sender} />;
        })}
      </div>
    </div>
  );
}
