import 'fake-indexeddb/auto';
import { deleteDB } from 'idb';
import { CACHE_DATABASE, sessionCache, type CachedSession } from '../storage/session-cache';
import { forgetCachedSession, keepSessionCached, paintFromCache } from './warm-start';
import { useAuthStore } from '../stores/auth';
import { useChatsStore } from '../stores/chats';
import { useContactsStore } from '../stores/contacts';
import { forgetThreads, useMessagesStore } from '../stores/messages';
import { useUsersStore } from '../stores/users';
import { chatsApi } from '../api/endpoints';
import type { Chat, ChatMessage, Me, Message } from '../model/types';
import { tokenStorage } from '../storage/tokens';
import { storedMessage } from '../testing/messages';

const ME = 3;

/** A message from person 9, in chat 5 unless said otherwise. */
const message = (id: number, chatId = 5): Message => storedMessage(id, chatId, 9);

const chat = (id: number, last: Message | null = null) =>
  ({ id, chat_type: 'private', participants: [ME, 9], created_at: '2026-01-01T00:00:00.000Z', last_message: last, last_message_at: last?.created_at ?? null, unread_messages: 0, unread_mentions: 0 }) as unknown as Chat;

function cached(extra: Partial<CachedSession> = {}): CachedSession {
  return {
    userId: ME,
    savedAt: 1,
    me: { id: ME, name: 'Me' } as Me,
    chats: [chat(5, message(72)), chat(6)],
    users: [{ id: 9, name: 'Nine' } as never],
    contacts: [{ id: 9, name: 'Nine' } as never],
    threads: [{ chatId: 5, messages: [message(70), message(71), message(72)] }],
    ...extra,
  };
}

async function until(condition: () => boolean | Promise<boolean>, deadlineMs = 5_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

beforeEach(() => {
  useAuthStore.setState({ user: null });
  useChatsStore.getState().reset();
  useContactsStore.getState().reset();
  useUsersStore.getState().reset();
  useMessagesStore.getState().reset();
  forgetThreads();
});

afterEach(async () => {
  await sessionCache.close();
  await deleteDB(CACHE_DATABASE);
});

test('the last visit paints before the server answers, and an open chat shows its cached messages until its page replaces them', async () => {
  await sessionCache.write(cached());
  expect(await paintFromCache(ME, () => true)).toBe(true);
  expect(useAuthStore.getState().user?.name).toBe('Me');
  expect(useChatsStore.getState()).toMatchObject({ loaded: true });
  expect(useChatsStore.getState().chats.map((known) => known.id)).toEqual([5, 6]);
  expect(useContactsStore.getState().contacts.map((known) => known.id)).toEqual([9]);
  expect(useUsersStore.getState().profiles[9]?.name).toBe('Nine');

  let answer: (page: { messages: Message[]; has_more: boolean }) => void = () => undefined;
  const history = jest.spyOn(chatsApi, 'history').mockReturnValue(new Promise((resolve) => (answer = resolve)) as never);
  const opening = useMessagesStore.getState().loadLatest(5);
  // At once, before any answer: the cached messages.
  const ids = () => useMessagesStore.getState().threads[5]!.messages.map((known: ChatMessage) => known.id);
  expect(useMessagesStore.getState().threads[5]).toMatchObject({ loaded: true, loading: true });
  expect(ids()).toEqual([70, 71, 72]);
  // A message arrives live while the page is on its way; 71 was deleted while the person was away.
  useMessagesStore.getState().receive(message(74));
  answer({ messages: [message(70), message(72), message(73)], has_more: false });
  await opening;
  expect(ids()).toEqual([70, 72, 73, 74]);
  expect(useMessagesStore.getState().threads[5]).toMatchObject({ loaded: true, loading: false, cachedIds: [] });
  expect(history).toHaveBeenCalledTimes(1);
});

test('a chat whose page fails keeps its cached messages and asks again when opened again', async () => {
  await sessionCache.write(cached());
  await paintFromCache(ME, () => true);
  const history = jest.spyOn(chatsApi, 'history').mockRejectedValueOnce(new Error('offline'));
  await expect(useMessagesStore.getState().loadLatest(5)).rejects.toThrow('offline');
  expect(useMessagesStore.getState().threads[5]!.messages.map((known) => known.id)).toEqual([70, 71, 72]);
  history.mockResolvedValueOnce({ messages: [message(72)], has_more: true });
  await useMessagesStore.getState().loadLatest(5);
  expect(useMessagesStore.getState().threads[5]!.messages.map((known) => known.id)).toEqual([72]);
});

test('nothing is painted over the server, for another person, or for a session already left', async () => {
  await sessionCache.write(cached());
  expect(await paintFromCache(ME + 1, () => true)).toBe(false);
  expect(await paintFromCache(ME, () => false)).toBe(false);
  useChatsStore.getState().hydrate([chat(8)]);
  expect(await paintFromCache(ME, () => true)).toBe(false);
  expect(useChatsStore.getState().chats.map((known) => known.id)).toEqual([8]);
  expect(useAuthStore.getState().user).toBeNull();
});

/** Tokens as the server issues them, for `userId` (only the payload's `sub` is read here). */
function signIn(userId: number): void {
  const payload = btoa(JSON.stringify({ sub: String(userId) })).replace(/=+$/, '');
  tokenStorage.save({ access_token: `h.${payload}.s`, refresh_token: 'opaque' } as never);
}

test('the cache follows the session: opened chats keep their newest stored messages, left chats and unsent messages stay out, sign-out clears it', async () => {
  signIn(ME);
  useAuthStore.setState({ user: { id: ME, name: 'Me' } as Me });
  useChatsStore.setState({ chats: [chat(5), chat(6)], loaded: true });
  const stop = keepSessionCached(ME);
  const page = Array.from({ length: 60 }, (_, index) => message(100 + index, 6));
  jest.spyOn(chatsApi, 'history').mockResolvedValue({ messages: page, has_more: true });
  useChatsStore.getState().setActive(6);
  await useMessagesStore.getState().loadLatest(6);
  useMessagesStore.getState().addPending({ ...message(-1, 6), state: 'sending' });
  useChatsStore.getState().remove(5);

  await until(async () => ((await sessionCache.read(ME))?.threads[0]?.messages.length ?? 0) > 0);
  const saved = (await sessionCache.read(ME))!;
  expect(saved.chats.map((known) => known.id)).toEqual([6]);
  expect(saved.threads.map((thread) => thread.chatId)).toEqual([6]);
  expect(saved.threads[0]!.messages.map((known) => known.id)).toEqual(page.slice(-50).map((known) => known.id));
  expect(saved.threads[0]!.messages[0]).not.toHaveProperty('state');

  stop();
  await forgetCachedSession();
  expect(await sessionCache.read(ME)).toBeNull();
});

test('a tab whose person has signed out (in another tab) or been replaced keeps nothing', async () => {
  signIn(ME + 1);
  useAuthStore.setState({ user: { id: ME, name: 'Me' } as Me });
  useChatsStore.setState({ chats: [chat(5)], loaded: true });
  const stop = keepSessionCached(ME);
  useChatsStore.getState().upsert(chat(6));
  // Hiding the tab saves at once (no waiting for the timer); a read is served after any write issued before it.
  Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
  expect(await sessionCache.read(ME)).toBeNull();
  // The same, for the person the tokens are for, does save: the check above is not vacuous.
  signIn(ME);
  useChatsStore.getState().upsert(chat(7));
  document.dispatchEvent(new Event('visibilitychange'));
  expect((await sessionCache.read(ME))?.chats.map((known) => known.id).sort()).toEqual([5, 6, 7]);
  Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
  stop();
  tokenStorage.clear();
});

test('under a cached copy older pages wait for the newest one; the live start asks again; a deletion reaches a closed chat’s copy', async () => {
  await sessionCache.write(cached());
  await paintFromCache(ME, () => true);
  // Deleted while the chat is closed: never painted again.
  useMessagesStore.getState().remove(5, 71);
  const history = jest.spyOn(chatsApi, 'history').mockRejectedValueOnce(new Error('offline'));
  await expect(useMessagesStore.getState().loadLatest(5)).rejects.toThrow('offline');
  expect(useMessagesStore.getState().threads[5]!.messages.map((known) => known.id)).toEqual([70, 72]);
  // Scrolling up under the cached copy does not replace it with an older page.
  await useMessagesStore.getState().loadOlder(5);
  expect(history).toHaveBeenCalledTimes(1);
  // The live connection starts: every chat on screen asks for its newest page again.
  history.mockResolvedValueOnce({ messages: [message(72), message(73)], has_more: true });
  useMessagesStore.getState().refreshOpen();
  await until(() => useMessagesStore.getState().threads[5]!.cachedIds.length === 0);
  expect(useMessagesStore.getState().threads[5]!.messages.map((known) => known.id)).toEqual([72, 73]);
  expect(history).toHaveBeenLastCalledWith(5, expect.objectContaining({ beforeId: undefined }));
});
