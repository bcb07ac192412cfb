import { create } from 'zustand';
import type { Chat, Message } from '../model/types';
import type { FlowEvent } from '../model/events';
import { isMessageEvent } from '../model/events';
import { chatsApi, type ChatListResponse } from '../api/endpoints';
import { useUsersStore } from './users';
import { withMessageDefaults } from '../model/defaults';

export interface ChatsState {
  /** Newest activity first (spec §4). */
  chats: Chat[];
  loaded: boolean;
  /** The event-log position the loaded list reflects: events at or below it are already in it. */
  snapshotSeq: number;
  /** The chat open on screen, if any: its messages are read as they come. */
  activeChatId: number | null;
  /**
   * Chats whose row left the list because their latest message's auto-delete time passed (spec §4), with the id
   * of that message: the row comes back only with a newer message. The chat itself stays (an open chat goes on).
   */
  expiredRows: Record<number, number>;
  /** Spec §4, checked every second: a chat whose latest message has expired leaves the list. */
  pruneExpired(now: number): void;
  load(): Promise<number>;
  /** Shows the server's chat list; returns the event-log position it was read at. */
  applyList(response: ChatListResponse): number;
  /** Shows a list kept from an earlier visit (warm start) until the server's arrives; ignored once that has. */
  hydrate(chats: Chat[]): void;
  applyEvent(event: FlowEvent, myId: number): void;
  setActive(chatId: number | null): void;
  /**
   * The person has seen the chat up to its newest message: clears its unread count here and tells the server up
   * to which message (later ones stay unread there). The count here mirrors the server's, so 0 means nothing to say.
   */
  markRead(chatId: number): Promise<void>;
  upsert(chat: Chat): void;
  /** A message of ours was stored: it is now the chat's latest. */
  noteOwnMessage(message: Message): void;
  /** Forgets a chat (deleted, left, or removed from it). */
  remove(chatId: number): void;
  /** Changes one chat's fields locally (after a server call that answered with them). */
  patch(chatId: number, fields: Partial<Chat>): void;
  reset(): void;
}

function activity(chat: Chat): string {
  return chat.last_message_at ?? chat.created_at;
}

/** Whether a chat has a row in the list: not while its latest message has expired (spec §4), until a newer one. */
export function isListed(chat: Chat, expiredRows: Record<number, number>): boolean {
  const expiredId = expiredRows[chat.id];
  return expiredId === undefined || (chat.last_message?.id ?? 0) > expiredId;
}

export function sortChats(chats: Chat[]): Chat[] {
  return [...chats].sort((a, b) => activity(b).localeCompare(activity(a)) || b.id - a.id);
}

/** Chats fetched because an event named a chat not in the list; one request per chat. */
const fetching = new Map<number, Promise<void>>();

export const useChatsStore = create<ChatsState>((set, get) => {
  const fetchChat = (chatId: number): Promise<void> => {
    let request = fetching.get(chatId);
    if (!request) {
      request = chatsApi
        .get(chatId)
        .then((chat) => {
          get().upsert(chat);
          void useUsersStore.getState().ensure(chat.participants);
        })
        .catch(() => undefined)
        .finally(() => fetching.delete(chatId));
      fetching.set(chatId, request);
    }
    return request;
  };

  /**
   * A chat with a new message, counted as the server counts it (messages/writer.ts): another's message is one
   * more unread (and one more unread mention if it names me); my own reads the chat up to it, mentions too.
   */
  const withMessage = (chat: Chat, message: Message, myId: number): Chat => {
    const mine = message.sender_id === myId;
    // Whoever writes has read the chat up to their message (the server moves their read mark there too).
    const readByOthers = mine ? chat.read_by_others_up_to : Math.max(chat.read_by_others_up_to, message.id);
    // The preview's own message again: counted once, and shown as it now is — except that a call's message that
    // already tells how the call went never goes back to the copy from before (a late answer to starting it).
    if (chat.last_message?.id === message.id) {
      const outcomeKept = chat.last_message.meta?.call_status !== undefined && message.meta?.call_status === undefined;
      return { ...chat, last_message: outcomeKept ? chat.last_message : message, read_by_others_up_to: readByOthers };
    }
    // An older message (a replay racing a fresher list) must not replace a newer preview.
    if (chat.last_message && chat.last_message.id > message.id) {
      return readByOthers === chat.read_by_others_up_to ? chat : { ...chat, read_by_others_up_to: readByOthers };
    }
    return {
      ...chat,
      last_message: message,
      last_message_at: message.created_at,
      last_message_deleted: false,
      unread_messages: mine ? 0 : chat.unread_messages + 1,
      unread_mentions: mine ? 0 : chat.unread_mentions + (message.mentions.includes(myId) ? 1 : 0),
      read_by_others_up_to: readByOthers,
    };
  };

  return {
    chats: [],
    loaded: false,
    snapshotSeq: 0,
    activeChatId: null,
    expiredRows: {},
    pruneExpired: (now) => {
      const gone = get().chats.filter((chat) => {
        const last = chat.last_message;
        return last?.expires_at && Date.parse(last.expires_at) <= now && get().expiredRows[chat.id] !== last.id;
      });
      if (gone.length === 0) return;
      set((state) => ({ expiredRows: { ...state.expiredRows, ...Object.fromEntries(gone.map((chat) => [chat.id, chat.last_message!.id])) } }));
    },
    load: async () => get().applyList(await chatsApi.list()),
    applyList: (response) => {
      useUsersStore.getState().upsert(response.users);
      const intervals = new Map(response.metadata.map((meta) => [meta.chat_id, meta.interval]));
      const chats = response.chats.map((chat) => ({ ...chat, interval: intervals.get(chat.id) ?? chat.interval }));
      set({ chats: sortChats(chats), loaded: true, snapshotSeq: response.seq });
      return response.seq;
    },
    hydrate: (chats) => {
      if (get().loaded) return;
      set({ chats: sortChats(chats), loaded: true });
    },
    applyEvent: (event, myId) => {
      if (event.seq <= get().snapshotSeq) return;
      if (event.event_type === 'chat-created') {
        const { chat_id } = (event as FlowEvent<'chat-created'>).additional_info;
        if (!get().chats.some((chat) => chat.id === chat_id)) void fetchChat(chat_id);
        return;
      }
      if (event.event_type === 'chat-read') {
        // What is left unread after a read mark (0, or messages that came after what was seen) — in log order.
        const { chat_id, unread_messages, unread_mentions } = (event as FlowEvent<'chat-read'>).additional_info;
        get().patch(chat_id, { unread_messages, unread_mentions });
        return;
      }
      if (event.event_type === 'message-edited') {
        // The preview shows the latest message's new text.
        const { chat_id, message } = (event as FlowEvent<'message-edited'>).additional_info;
        const chat = get().chats.find((candidate) => candidate.id === chat_id);
        if (chat?.last_message?.id === message.id) get().patch(chat_id, { last_message: message });
        return;
      }
      if (event.event_type === 'message-reactions') {
        // The preview's message carries its reactions too, as the server's list has them.
        const { chat_id, message_id, reactions } = (event as FlowEvent<'message-reactions'>).additional_info;
        const chat = get().chats.find((candidate) => candidate.id === chat_id);
        if (chat?.last_message?.id === message_id) get().patch(chat_id, { last_message: { ...chat.last_message, reactions } });
        return;
      }
      if (event.event_type === 'messages-read') {
        // Read receipts: someone read past messages of mine; a mark never moves back.
        const { chat_id, up_to } = (event as FlowEvent<'messages-read'>).additional_info;
        const chat = get().chats.find((candidate) => candidate.id === chat_id);
        if (chat && up_to > chat.read_by_others_up_to) get().patch(chat_id, { read_by_others_up_to: up_to });
        return;
      }
      if (event.event_type === 'invited-to-chat' || event.event_type === 'chat-updated') {
        const { chat } = (event as FlowEvent<'chat-updated'>).additional_info;
        get().upsert(chat);
        void useUsersStore.getState().ensure(chat.participants);
        return;
      }
      if (event.event_type === 'chat-deleted') {
        get().remove((event as FlowEvent<'chat-deleted'>).additional_info.chat_id);
        return;
      }
      if (event.event_type === 'chat-interval') {
        const { chat_id, interval } = (event as FlowEvent<'chat-interval'>).additional_info;
        get().patch(chat_id, { interval });
        return;
      }
      if (event.event_type === 'message-deleted') {
        const { chat_id, last_message, last_message_deleted } = (event as FlowEvent<'message-deleted'>).additional_info;
        const chat = get().chats.find((candidate) => candidate.id === chat_id);
        if (!chat) return;
        // Spec §4: the preview becomes the latest message left, or "Message deleted" when none is.
        get().patch(chat_id, {
          last_message,
          last_message_at: last_message?.created_at ?? chat.last_message_at,
          last_message_deleted: last_message_deleted ?? last_message === null,
        });
        // Whether it was unread for me only the server knows: the event says what is left (older events did not,
        // then it is asked).
        const { unread_messages, unread_mentions } = (event as FlowEvent<'message-deleted'>).additional_info;
        if (unread_messages !== undefined && unread_mentions !== undefined) get().patch(chat_id, { unread_messages, unread_mentions });
        else if (chat.unread_messages > 0) {
          void chatsApi
            .unreadCount(chat_id)
            .then(({ unread_messages, unread_mentions }) => get().patch(chat_id, { unread_messages, unread_mentions }))
            .catch(() => undefined);
        }
        return;
      }
      // A call's message counts like any message: it moves the chat up and is unread for the others. It comes with
      // `call`, or with `hang` when the call was busy at once (that `hang` names the caller, as `call` does).
      if (event.event_type === 'hang' && !(event as FlowEvent<'hang'>).additional_info.user) {
        // The end of a call: its message, now with the outcome, where the preview shows it (never counted again).
        const { chat_id, message } = (event as FlowEvent<'hang'>).additional_info;
        const chat = get().chats.find((candidate) => candidate.id === chat_id);
        if (message && chat?.last_message?.id === message.id) get().patch(chat_id, { last_message: withMessageDefaults(message) });
        return;
      }
      if (isMessageEvent(event) || event.event_type === 'call' || event.event_type === 'hang') {
        const { user, message: carried } = (event as FlowEvent<'text' | 'hang'>).additional_info;
        if (!carried) return;
        const message = withMessageDefaults(carried);
        // The sender's profile as the event carries it, one copy for every member: without the phone, which only
        // some of them may see — a phone already known from the list stays.
        if (user) {
          const phone = user.phone ?? useUsersStore.getState().profiles[user.id]?.phone;
          useUsersStore.getState().upsert([phone ? { ...user, phone } : user]);
        }
        const known = get().chats.find((chat) => chat.id === message.chat_id);
        if (!known) {
          void fetchChat(message.chat_id);
          return;
        }
        // Unread counts what others wrote, exactly as the server does — the open chat too: whoever shows it to the
        // person (a visible chat page) marks it read, which tells the server; a hidden tab leaves it unread.
        set((state) => ({
          chats: sortChats(state.chats.map((chat) => (chat.id === message.chat_id ? withMessage(chat, message, myId) : chat))),
        }));
      }
    },
    setActive: (chatId) => set({ activeChatId: chatId }),
    markRead: async (chatId) => {
      const chat = get().chats.find((candidate) => candidate.id === chatId);
      if (!chat || chat.unread_messages === 0) return;
      set((state) => ({
        chats: state.chats.map((candidate) => (candidate.id === chatId ? { ...candidate, unread_messages: 0, unread_mentions: 0 } : candidate)),
      }));
      await chatsApi.markRead(chatId, chat.last_message?.id);
    },
    upsert: (chat) => set((state) => ({ chats: sortChats([...state.chats.filter((known) => known.id !== chat.id), chat]) })),
    noteOwnMessage: (message) =>
      set((state) => ({
        chats: sortChats(state.chats.map((chat) => (chat.id === message.chat_id ? withMessage(chat, message, message.sender_id) : chat))),
      })),
    remove: (chatId) => set((state) => ({ chats: state.chats.filter((chat) => chat.id !== chatId) })),
    patch: (chatId, fields) =>
      set((state) => ({ chats: sortChats(state.chats.map((chat) => (chat.id === chatId ? { ...chat, ...fields } : chat))) })),
    reset: () => set({ chats: [], loaded: false, snapshotSeq: 0, activeChatId: null, expiredRows: {} }),
  };
});
