import { useEffect } from 'react';
import { useNavigate } from '@messenger/router';
import {
  chatDisplay,
  displayName,
  eventBus,
  i18n,
  isMessageEvent,
  useAuthStore,
  useChatsStore,
  useContactsStore,
  useNotificationsStore,
  useUsersStore,
  type FlowEvent,
} from '@messenger/shared';
import { playNotificationSound } from './sound';

/**
 * Turns live events into notifications per the person's settings (popup, sound, private): a new message in a
 * chat that is not open (and whose notifications are on), a new chat, being added to a group, a contact who joined
 * (spec §4).
 */
export function useLiveNotifications(): void {
  const navigate = useNavigate();
  useEffect(() => {
    const notify = (item: Parameters<ReturnType<typeof useNotificationsStore.getState>['push']>[0]) => {
      const me = useAuthStore.getState().user;
      if (!me) return;
      if (me.popup_notifications) useNotificationsStore.getState().push(item);
      if (me.sound_notifications) playNotificationSound();
      if (me.popup_notifications && document.visibilityState === 'hidden') showDesktopNotification(item, navigate);
    };

    const onEvent = (event: FlowEvent) => {
      const me = useAuthStore.getState().user;
      if (!me) return;
      const { activeChatId, chats } = useChatsStore.getState();
      const chatOpen = (chatId: number) => activeChatId === chatId && document.visibilityState === 'visible';

      if (isMessageEvent(event)) {
        const { message, user } = event.additional_info;
        if (message.sender_id === me.id || chatOpen(message.chat_id)) return;
        const chat = chats.find((candidate) => candidate.id === message.chat_id);
        // A muted chat stays quiet, unless the message mentions me.
        if (chat && !chat.notifications && !(message.mentions ?? []).includes(me.id)) return;
        const contacts = useContactsStore.getState().contacts;
        const sender = displayName(contacts.find((contact) => contact.id === user.id), useUsersStore.getState().profiles[user.id], user);
        const group = chat && chat.chat_type === 'group' ? chatDisplay(chat, me.id, contacts, useUsersStore.getState().profiles).name : undefined;
        notify({
          kind: 'message',
          sender,
          group,
          avatar: user.avatar,
          // "Private" notifications never show what was written.
          text: me.private_notifications || !message.text ? i18n.t('shell:notifications.newMessage') : message.text,
          chat: { id: message.chat_id },
          messageId: message.id,
        });
      } else if (event.event_type === 'chat-created') {
        const { chat_id, user } = (event as FlowEvent<'chat-created'>).additional_info;
        if (user.id === me.id || chatOpen(chat_id)) return;
        const name = displayName(
          useContactsStore.getState().contacts.find((contact) => contact.id === user.id),
          useUsersStore.getState().profiles[user.id],
          user,
        );
        notify({ kind: 'message', text: i18n.t('shell:notifications.newChat', { name }), chat: { id: chat_id } });
      } else if (event.event_type === 'invited-to-chat') {
        const { chat, user } = (event as FlowEvent<'invited-to-chat'>).additional_info;
        if (user.id === me.id || chatOpen(chat.id) || !chat.notifications) return;
        const contacts = useContactsStore.getState().contacts;
        const profiles = useUsersStore.getState().profiles;
        const name = displayName(contacts.find((contact) => contact.id === user.id), profiles[user.id], user);
        const group = chatDisplay(chat, me.id, contacts, profiles).name;
        notify({ kind: 'message', text: i18n.t('shell:notifications.addedToGroup', { name, group }), chat: { id: chat.id } });
      } else if (event.event_type === 'message-deleted') {
        // The in-app toast goes in the session's dispatch; the system notification goes here.
        const { message_id } = (event as FlowEvent<'message-deleted'>).additional_info;
        desktopNotifications.get(message_id)?.close();
        desktopNotifications.delete(message_id);
      } else if (event.event_type === 'contact-joined') {
        const { contact } = (event as FlowEvent<'contact-joined'>).additional_info;
        notify({ kind: 'info', text: i18n.t('shell:notifications.contactJoined', { name: displayName(contact) }) });
      }
    };
    return eventBus.on('event', onEvent);
  }, [navigate]);

  // Signed out (here or in another tab): the person's messages leave the system tray too — the next person at this
  // computer must not read them there, nor be taken into their chats by a click.
  useEffect(
    () =>
      useAuthStore.subscribe((state, previous) => {
        if (previous.user && !state.user) closeSystemNotifications();
      }),
    [],
  );
}

/** System notifications still showing, by the message they show (closed when it is deleted). */
const desktopNotifications = new Map<number, Notification>();
/** Every system notification this page showed and that is still open. */
const shownNotifications = new Set<Notification>();

function closeSystemNotifications(): void {
  for (const notification of shownNotifications) notification.close();
  shownNotifications.clear();
  desktopNotifications.clear();
  // Those the service worker showed for Web Push while no tab was open.
  void navigator.serviceWorker
    ?.getRegistration()
    .then((registration) => registration?.getNotifications())
    .then((shown) => shown?.forEach((notification) => notification.close()))
    .catch(() => undefined);
}

/** While the tab is hidden, a system notification too (if the person allowed it in their profile). */
function showDesktopNotification(
  item: { text: string; sender?: string; group?: string; chat?: { id: number }; messageId?: number },
  navigate: (path: string) => void,
): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const title = [item.sender, item.group].filter(Boolean).join(' · ') || i18n.t('shell:appName');
  const notification = new Notification(title, { body: item.text, tag: item.chat ? `chat-${item.chat.id}` : undefined });
  const messageId = item.messageId;
  shownNotifications.add(notification);
  if (messageId !== undefined) desktopNotifications.set(messageId, notification);
  notification.onclose = () => {
    shownNotifications.delete(notification);
    if (messageId !== undefined && desktopNotifications.get(messageId) === notification) desktopNotifications.delete(messageId);
  };
  notification.onclick = () => {
    window.focus();
    if (item.chat) navigate(`/${item.chat.id}`);
    notification.close();
  };
}
