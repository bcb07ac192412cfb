import { useChatsStore } from './chats';
import { rememberThreads, useMessagesStore } from './messages';
import type { Chat, ChatMessage, Message } from '../model/types';
import type { FlowEvent } from '../model/events';
import { chatsApi } from '../api/endpoints';
import { storedMessage } from '../testing/messages';
import { chatFixture } from '../testing/chats';

const message = storedMessage;

const chat = (id: number, extra: Partial<Chat> = {}): Chat => chatFixture({ id, created_at: '2026-01-01T00:00:00.000Z', ...extra });

const event = <T extends FlowEvent['event_type']>(seq: number, type: T, info: FlowEvent<T>['additional_info']) =>
  ({ seq, event_type: type, additional_info: info }) as FlowEvent;

beforeEach(() => {
  useChatsStore.setState({ chats: [chat(1), chat(2, { last_message_at: '2026-01-02T00:00:00.000Z' })], loaded: true, snapshotSeq: 10, activeChatId: null });
});

test('a message moves its chat to the top and counts as unread unless it is mine (mine reads the chat, as on the server) — in the open chat too, until it is marked read', async () => {
  const markRead = jest.spyOn(chatsApi, 'markRead').mockResolvedValue({ chat_id: 1, unread_messages: 0 });
  const store = useChatsStore.getState();
  store.applyEvent(event(11, 'text', { chat_id: 1, message_id: 5, message: message(5, 1, 2, { created_at: '2026-02-01T00:00:00.000Z' }), user: { id: 2 } as never }), 1);
  expect(useChatsStore.getState().chats.map((c) => [c.id, c.unread_messages])).toEqual([
    [1, 1],
    [2, 0],
  ]);
  // My own message (from another device of mine) reads the chat up to it: the server's count is 0 now.
  store.applyEvent(event(12, 'text', { chat_id: 1, message_id: 6, message: message(6, 1, 1, { created_at: '2026-02-02T00:00:00.000Z' }), user: { id: 1 } as never }), 1);
  expect(useChatsStore.getState().chats[0]).toMatchObject({ id: 1, unread_messages: 0, last_message: { id: 6 } });
  await store.markRead(1);
  expect(markRead).not.toHaveBeenCalled();
  useChatsStore.getState().setActive(1);
  // The open chat's message is unread until someone who shows it marks it read, so the server hears of it.
  store.applyEvent(event(13, 'text', { chat_id: 1, message_id: 7, message: message(7, 1, 2, { created_at: '2026-02-03T00:00:00.000Z' }), user: { id: 2 } as never }), 1);
  expect(useChatsStore.getState().chats[0]).toMatchObject({ id: 1, unread_messages: 1, last_message: { id: 7 } });
  await store.markRead(1);
  expect(markRead).toHaveBeenLastCalledWith(1, 7);
  expect(useChatsStore.getState().chats[0]).toMatchObject({ id: 1, unread_messages: 0 });
  // Nothing unread: nothing to tell.
  await store.markRead(1);
  expect(markRead).toHaveBeenCalledTimes(1);
  markRead.mockRestore();
});

test('chat-read sets what is left unread after the read mark', () => {
  useChatsStore.getState().patch(1, { unread_messages: 4 });
  useChatsStore.getState().applyEvent(event(11, 'chat-read', { chat_id: 1, unread_messages: 1, unread_mentions: 0 }), 1);
  expect(useChatsStore.getState().chats.find((c) => c.id === 1)!.unread_messages).toBe(1);
});

test('read receipts: a reply or a messages-read event moves how far the others read, never back; my own messages do not', () => {
  const store = useChatsStore.getState();
  const readUpTo = () => useChatsStore.getState().chats.find((c) => c.id === 1)!.read_by_others_up_to;
  store.applyEvent(event(11, 'text', { chat_id: 1, message_id: 5, message: message(5, 1, 1), user: { id: 1 } as never }), 1);
  expect(readUpTo()).toBe(0);
  store.applyEvent(event(12, 'messages-read', { chat_id: 1, reader_id: 2, up_to: 5 }), 1);
  expect(readUpTo()).toBe(5);
  store.applyEvent(event(13, 'text', { chat_id: 1, message_id: 8, message: message(8, 1, 2), user: { id: 2 } as never }), 1);
  expect(readUpTo()).toBe(8);
  store.applyEvent(event(14, 'messages-read', { chat_id: 1, reader_id: 2, up_to: 6 }), 1);
  expect(readUpTo()).toBe(8);
});

test('a message mentioning me is an unread mention until the chat is read; my own message reads them', async () => {
  const markRead = jest.spyOn(chatsApi, 'markRead').mockResolvedValue({ chat_id: 1, unread_messages: 0 });
  const store = useChatsStore.getState();
  const mentions = () => useChatsStore.getState().chats.find((c) => c.id === 1)!.unread_mentions;
  store.applyEvent(event(11, 'text', { chat_id: 1, message_id: 5, message: message(5, 1, 2, { mentions: [1] }), user: { id: 2 } as never }), 1);
  store.applyEvent(event(12, 'text', { chat_id: 1, message_id: 6, message: message(6, 1, 2, { mentions: [3] }), user: { id: 2 } as never }), 1);
  expect(mentions()).toBe(1);
  store.applyEvent(event(13, 'text', { chat_id: 1, message_id: 7, message: message(7, 1, 1), user: { id: 1 } as never }), 1);
  expect(mentions()).toBe(0);
  store.applyEvent(event(14, 'text', { chat_id: 1, message_id: 8, message: message(8, 1, 2, { mentions: [1] }), user: { id: 2 } as never }), 1);
  expect(mentions()).toBe(1);
  await store.markRead(1);
  expect(mentions()).toBe(0);
  markRead.mockRestore();
});

test('events already reflected in the loaded list are ignored', () => {
  useChatsStore.getState().applyEvent(event(9, 'text', { chat_id: 1, message_id: 5, message: message(5, 1, 2), user: { id: 2 } as never }), 1);
  expect(useChatsStore.getState().chats.find((c) => c.id === 1)!.unread_messages).toBe(0);
});

test('chat-updated replaces a chat, chat-deleted removes it, chat-interval sets its timer', () => {
  const store = useChatsStore.getState();
  store.applyEvent(event(11, 'chat-updated', { chat_id: 2, chat: chat(2, { name: 'Renamed', chat_type: 'group' }) }), 1);
  expect(useChatsStore.getState().chats.find((c) => c.id === 2)!.name).toBe('Renamed');
  store.applyEvent(event(12, 'chat-interval', { chat_id: 2, interval: 5, user: { id: 2 } as never }), 1);
  expect(useChatsStore.getState().chats.find((c) => c.id === 2)!.interval).toBe(5);
  store.applyEvent(event(13, 'chat-deleted', { chat_id: 2 }), 1);
  expect(useChatsStore.getState().chats.map((c) => c.id)).toEqual([1]);
});

test('message-deleted sets the preview to the new latest message', () => {
  useChatsStore.getState().patch(1, { last_message: message(5, 1, 2), last_message_at: message(5, 1, 2).created_at });
  useChatsStore.getState().applyEvent(event(11, 'message-deleted', { chat_id: 1, message_id: 5, last_message: message(4, 1, 1) }), 1);
  expect(useChatsStore.getState().chats.find((c) => c.id === 1)!.last_message!.id).toBe(4);
});

test("message-deleted shows the unread counts the server says are left, without asking", () => {
  const unreadCount = jest.spyOn(chatsApi, 'unreadCount');
  useChatsStore.getState().patch(1, { last_message: message(5, 1, 2), unread_messages: 2, unread_mentions: 1 });
  useChatsStore
    .getState()
    .applyEvent(event(11, 'message-deleted', { chat_id: 1, message_id: 5, last_message: message(4, 1, 2), unread_messages: 1, unread_mentions: 0 }), 1);
  expect(useChatsStore.getState().chats.find((c) => c.id === 1)).toMatchObject({ unread_messages: 1, unread_mentions: 0 });
  expect(unreadCount).not.toHaveBeenCalled();
  unreadCount.mockRestore();
});

test('a call that was busy at once comes with its hang: its message is new, unread for the callee', () => {
  const call = message(9, 1, 2, { type: 'call', text: '', meta: { call_status: 'busy', duration_seconds: null }, created_at: '2026-03-01T00:00:00.000Z' });
  useChatsStore.getState().applyEvent(event(11, 'hang', { chat_id: 1, call_id: 3, room_id: 'r', reason: 'busy', message: call, user: { id: 2 } as never }), 1);
  expect(useChatsStore.getState().chats[0]).toMatchObject({ id: 1, unread_messages: 1, last_message: { id: 9 } });
  // The hang at the end of a call repeats a message already counted.
  useChatsStore.getState().applyEvent(event(12, 'hang', { chat_id: 1, call_id: 3, room_id: 'r', reason: 'busy', message: call }), 1);
  expect(useChatsStore.getState().chats[0]).toMatchObject({ id: 1, unread_messages: 1 });
});

describe('messages', () => {
  const stored = (m: Message): ChatMessage => ({ ...m, state: 'sent' });

  test('a pending copy is replaced by the stored one, whichever arrives first', () => {
    useMessagesStore.setState({ threads: { 1: { messages: [stored(message(1, 1, 2))], hasMore: false, loading: false, loaded: true, error: null, cachedIds: [] } } });
    const pending: ChatMessage = { ...message(-1, 1, 1), client_id: 'mine', state: 'sending' };
    useMessagesStore.getState().addPending(pending);
    useMessagesStore.getState().receive({ ...message(2, 1, 1), client_id: 'mine' });
    useMessagesStore.getState().receive({ ...message(2, 1, 1), client_id: 'mine' });
    expect(useMessagesStore.getState().threads[1]!.messages.map((m) => [m.id, m.state])).toEqual([
      [1, 'sent'],
      [2, 'sent'],
    ]);
  });

  test('a message acknowledged while the chat’s first page is loading is sent, whatever that page holds', async () => {
    useMessagesStore.setState({ threads: {} });
    let answer: (page: { messages: Message[]; has_more: boolean }) => void = () => undefined;
    const history = jest.spyOn(chatsApi, 'history').mockReturnValue(new Promise((resolve) => (answer = resolve)) as never);
    const loading = useMessagesStore.getState().loadLatest(5);
    useMessagesStore.getState().addPending({ ...message(-1, 5, 1), client_id: 'first', state: 'sending' });
    useMessagesStore.getState().receive({ ...message(9, 5, 1), client_id: 'first' });
    answer({ messages: [], has_more: false }); // read before the message was stored
    await loading;
    expect(useMessagesStore.getState().threads[5]!.messages.map((m) => [m.id, m.state])).toEqual([[9, 'sent']]);
    history.mockRestore();
  });

  test('an edit replaces the text here and in the quotes of replies to it; an older copy never undoes it', () => {
    const reply = stored(message(2, 1, 1, { reply_to: { id: 1, sender_id: 2, type: 'text', text: 'm1', file: null } }));
    useMessagesStore.setState({ threads: { 1: { messages: [stored(message(1, 1, 2)), reply], hasMore: false, loading: false, loaded: true, error: null, cachedIds: [] } } });
    const edited = message(1, 1, 2, { text: 'better', edited_at: '2026-03-01T00:00:00.000Z' });
    useMessagesStore.getState().edited(edited);
    useMessagesStore.getState().receive(message(1, 1, 2));
    expect(useMessagesStore.getState().threads[1]!.messages.map((m) => [m.id, m.text, m.edited_at, m.reply_to?.text])).toEqual([
      [1, 'better', '2026-03-01T00:00:00.000Z', undefined],
      [2, 'm2', null, 'better'],
    ]);
    // The chat list preview follows an edit of the latest message, not of another one.
    useChatsStore.getState().patch(1, { last_message: message(1, 1, 2) });
    useChatsStore.getState().applyEvent(event(11, 'message-edited', { chat_id: 1, message_id: 1, message: edited }), 1);
    expect(useChatsStore.getState().chats.find((c) => c.id === 1)!.last_message!.text).toBe('better');
  });

  test('an edit or a call’s outcome for a message further back than the thread goes leaves no gap before older pages', async () => {
    // The newest page of a long chat: messages 951–1000, older ones still to load.
    const page = Array.from({ length: 50 }, (_, index) => message(951 + index, 1, 2));
    const reply = message(990, 1, 1, { reply_to: { id: 100, sender_id: 2, type: 'text', text: 'm100', file: null } });
    const newest = page.map((m) => (m.id === 990 ? reply : m)).map(stored);
    useMessagesStore.setState({ threads: { 1: { messages: newest, hasMore: true, loading: false, loaded: true, error: null, cachedIds: [] } } });
    useMessagesStore.getState().edited(message(100, 1, 2, { text: 'better', edited_at: '2026-03-01T00:00:00.000Z' }));
    useMessagesStore.getState().receive(message(120, 1, 2, { type: 'call', text: '', meta: { call_status: 'ended' } as never }));
    const thread = useMessagesStore.getState().threads[1]!;
    expect(thread.messages.map((m) => m.id)).toEqual(page.map((m) => m.id));
    // The reply in view quotes the new text all the same.
    expect(thread.messages.find((m) => m.id === 990)!.reply_to!.text).toBe('better');
    // The next older page is asked for before 951, not before 100.
    const history = jest.spyOn(chatsApi, 'history').mockResolvedValue({ messages: [message(950, 1, 2)], has_more: true } as never);
    await useMessagesStore.getState().loadOlder(1);
    expect(history).toHaveBeenCalledWith(1, expect.objectContaining({ beforeId: 951 }));
    history.mockRestore();
    // New messages still join at the end, and with every page loaded an old message finds its place.
    useMessagesStore.getState().receive(message(1001, 1, 2));
    expect(useMessagesStore.getState().threads[1]!.messages.at(-1)!.id).toBe(1001);
    useMessagesStore.setState({ threads: { 2: { messages: [stored(message(5, 2, 2)), stored(message(9, 2, 2))], hasMore: false, loading: false, loaded: true, error: null, cachedIds: [] } } });
    useMessagesStore.getState().receive({ ...message(7, 2, 2), chat_id: 2 });
    expect(useMessagesStore.getState().threads[2]!.messages.map((m) => m.id)).toEqual([5, 7, 9]);
  });

  test('a chat I am removed from forgets its messages: coming back, it loads its newest page again', async () => {
    useMessagesStore.setState({ threads: { 1: { messages: [stored(message(500, 1, 2))], hasMore: true, loading: false, loaded: true, error: null, cachedIds: [] } } });
    useMessagesStore.getState().forget(1);
    expect(useMessagesStore.getState().threads[1]).toBeUndefined();
    const history = jest.spyOn(chatsApi, 'history').mockResolvedValue({ messages: [message(700, 1, 2)], has_more: true } as never);
    await useMessagesStore.getState().loadLatest(1);
    expect(history).toHaveBeenCalledWith(1, expect.objectContaining({ beforeId: undefined }));
    expect(useMessagesStore.getState().threads[1]!.messages.map((m) => m.id)).toEqual([700]);
    history.mockRestore();
  });

  test('a deletion or a reaction heard while a history page is on its way is not undone by that page', async () => {
    let answer: (page: { messages: Message[]; has_more: boolean }) => void = () => undefined;
    const history = jest.spyOn(chatsApi, 'history').mockReturnValue(new Promise((resolve) => (answer = resolve)) as never);
    // A warm-started thread (cached 1–3) refreshes: the page was read before 2 was deleted and 3 got a reaction.
    useMessagesStore.setState({ threads: {} });
    rememberThreads([{ chatId: 8, messages: [message(1, 8, 2), message(2, 8, 2), message(3, 8, 2)] }]);
    const loading = useMessagesStore.getState().loadLatest(8);
    const heart = [{ emoji: '❤️', count: 1, user_ids: [1] }] as never;
    useMessagesStore.getState().remove(8, 2);
    useMessagesStore.getState().reacted(8, 3, heart);
    answer({ messages: [message(1, 8, 2), message(2, 8, 2), message(3, 8, 2)], has_more: false });
    await loading;
    const thread = useMessagesStore.getState().threads[8]!;
    expect(thread.messages.map((m) => m.id)).toEqual([1, 3]);
    expect(thread.messages.find((m) => m.id === 3)!.reactions).toEqual(heart);
    // Once the page is in, later pages are not held to what was heard then.
    history.mockResolvedValue({ messages: [message(2, 8, 2)], has_more: false } as never);
    useMessagesStore.setState({ threads: {} });
    await useMessagesStore.getState().loadLatest(8);
    expect(useMessagesStore.getState().threads[8]!.messages.map((m) => m.id)).toEqual([2]);
    history.mockRestore();
    rememberThreads([]);
  });

  test('expired messages leave the view; deleted ones are removed; replies stop quoting either', () => {
    const now = Date.UTC(2026, 5, 1);
    useMessagesStore.setState({
      threads: {
        1: {
          messages: [
            stored(message(1, 1, 2, { expires_at: new Date(now - 1).toISOString() })),
            stored(message(2, 1, 2, { expires_at: new Date(now + 5000).toISOString() })),
            stored(message(3, 1, 2)),
            stored(message(4, 1, 2, { reply_to: { id: 1, sender_id: 2, type: 'text', text: 'self-destructing', file: null } })),
            stored(message(5, 1, 2, { reply_to: { id: 3, sender_id: 2, type: 'document', text: 'see this', file: { path: 'p', name: 'n.pdf', size: 1, mime: 'application/pdf' } } })),
          ],
          hasMore: false,
          loading: false,
          loaded: true,
          error: null,
          cachedIds: [],
        },
      },
    });
    const quoteOf = (id: number) => useMessagesStore.getState().threads[1]!.messages.find((m) => m.id === id)!.reply_to;
    useMessagesStore.getState().pruneExpired(now);
    expect(useMessagesStore.getState().threads[1]!.messages.map((m) => m.id)).toEqual([2, 3, 4, 5]);
    // A reply no longer quotes what expired or was deleted: it shows as a deleted message, as the server sends it.
    expect(quoteOf(4)).toMatchObject({ id: 1, text: '', file: null });
    expect(quoteOf(5)).toMatchObject({ id: 3, text: 'see this' });
    useMessagesStore.getState().remove(1, 3);
    expect(useMessagesStore.getState().threads[1]!.messages.map((m) => m.id)).toEqual([2, 4, 5]);
    expect(quoteOf(5)).toMatchObject({ id: 3, text: '', file: null });
  });
});

test('a call counts like a message: its chat moves up and the call is unread for the person called', () => {
  const call = message(6, 1, 2, { type: 'call', text: '', created_at: '2026-02-01T00:00:00.000Z' });
  useChatsStore
    .getState()
    .applyEvent(event(11, 'call', { chat_id: 1, call_id: 3, message_id: 6, room_id: 'r', chat_type: 'private', user: { id: 2 } as never, message: call }), 1);
  const [first] = useChatsStore.getState().chats;
  expect([first!.id, first!.unread_messages, first!.last_message?.type]).toEqual([1, 1, 'call']);
});
