import 'fake-indexeddb/auto';
import { contactsApi, chatsApi, userApi } from '../api/endpoints';
import { useAuthStore } from '../stores/auth';
import { useChatsStore } from '../stores/chats';
import { useConnectionStore } from '../stores/connection';
import { tokenStorage } from '../storage/tokens';
import type { Me } from '../model/types';
import { useMessagesStore } from '../stores/messages';
import type { FlowEvent } from '../model/events';
import { storedMessage } from '../testing/messages';
import { applyFlowEvent, followSessionCookies, startSession, stopSession } from './session';

/** What the session gave the last flow client it made (its resync hook). */
const mockFlow: { options: { onResync: (head: number) => Promise<unknown>; onStatus: (status: string) => void } | null } = { options: null };
jest.mock('./sockets', () => ({
  createFlowClient: (options: never) => {
    mockFlow.options = options;
    return { start: jest.fn(), stop: jest.fn() };
  },
  chatSocket: { close: jest.fn(), isPending: () => false },
}));
jest.mock('./push', () => ({ syncPush: async () => undefined, dropPushSubscription: async () => undefined }));

const ME = { id: 3, name: 'Me', role: 0, deleted: false, temporary: false } as unknown as Me;
const LIST = { chats: [], users: [], metadata: [], seq: 7 };

function signIn(userId: number): void {
  const payload = btoa(JSON.stringify({ sub: String(userId) })).replace(/=+$/, '');
  tokenStorage.save({ access_token: `h.${payload}.s`, refresh_token: 'opaque' } as never);
}

async function until(condition: () => boolean, deadlineMs = 5_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

beforeEach(() => {
  signIn(ME.id);
  jest.spyOn(contactsApi, 'list').mockResolvedValue([]);
});

afterEach(() => {
  stopSession();
  tokenStorage.clear();
});

test('a start still waiting when the session stops does not hold up the next one, nor write into it', async () => {
  let answerList: (list: typeof LIST) => void = () => undefined;
  const me = jest.spyOn(userApi, 'me').mockResolvedValue(ME);
  jest.spyOn(chatsApi, 'list').mockReturnValueOnce(new Promise((resolve) => (answerList = resolve)) as never);
  const first = startSession();
  stopSession();
  // The person signs in again (a guest verifying their phone, say) before the first start has answered.
  signIn(ME.id);
  jest.spyOn(chatsApi, 'list').mockResolvedValueOnce({ ...LIST, seq: 9 } as never);
  await startSession();
  expect(me).toHaveBeenCalledTimes(2);
  expect(useAuthStore.getState().user?.id).toBe(ME.id);
  expect(useChatsStore.getState().snapshotSeq).toBe(9);
  // The first start's late answer changes nothing.
  answerList({ ...LIST, seq: 1 });
  await first;
  expect(useChatsStore.getState().snapshotSeq).toBe(9);
});

test('a start that fails while the person already sees their screen says offline and tries again on its own', async () => {
  useAuthStore.setState({ user: ME });
  jest.spyOn(userApi, 'me').mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValue(ME);
  jest.spyOn(chatsApi, 'list').mockResolvedValue(LIST as never);
  await startSession();
  expect(useConnectionStore.getState().status).toBe('offline');
  // Back online: tried at once.
  window.dispatchEvent(new Event('online'));
  await until(() => useChatsStore.getState().snapshotSeq === 7);
});

test('a chat-deleted event (I left or was removed) drops the chat and its messages', () => {
  useAuthStore.getState().setUser({ id: 1, role: 0 } as Me);
  useChatsStore.setState({ chats: [{ id: 4 } as never], loaded: true, snapshotSeq: 10, activeChatId: null });
  useMessagesStore.setState({
    threads: { 4: { messages: [{ ...storedMessage(500, 4, 2), state: 'sent' }], hasMore: true, loading: false, loaded: true, error: null, cachedIds: [] } },
  });
  applyFlowEvent({ seq: 11, event_type: 'chat-deleted', additional_info: { chat_id: 4 } } as FlowEvent);
  expect(useChatsStore.getState().chats).toEqual([]);
  expect(useMessagesStore.getState().threads[4]).toBeUndefined();
});

test('a tab follows the shared sign-in cookies: signed out or signed in as someone else elsewhere, it drops what it shows', () => {
  useAuthStore.getState().setUser(ME);
  useChatsStore.setState({ chats: [{ id: 1 } as never] });
  followSessionCookies();
  expect(useAuthStore.getState().user).toEqual(ME); // still this person's cookies: nothing changes
  signIn(ME.id + 1); // another tab signed in as someone else
  followSessionCookies();
  expect(useAuthStore.getState().user).toBeNull();
  expect(useChatsStore.getState().chats).toEqual([]);
  expect(useAuthStore.getState().hasSession).toBe(true); // the gate starts the other person's session
  useAuthStore.getState().setUser(ME);
  tokenStorage.clear(); // another tab signed out
  followSessionCookies();
  expect(useAuthStore.getState().user).toBeNull();
  expect(useAuthStore.getState().hasSession).toBe(false);
});

test('a reload after a resync that fails is tried again until it works; the connection shows as not back meanwhile', async () => {
  jest.spyOn(userApi, 'me').mockResolvedValue(ME);
  const list = jest.spyOn(chatsApi, 'list').mockResolvedValue(LIST as never);
  await startSession();
  list.mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValue({ ...LIST, seq: 40 } as never);
  mockFlow.options!.onStatus('online'); // the flow socket is up: the server sent it `resync`
  const reloaded = mockFlow.options!.onResync(40);
  await until(() => useConnectionStore.getState().status === 'connecting');
  await reloaded;
  expect(useChatsStore.getState().snapshotSeq).toBe(40);
  expect(useConnectionStore.getState().status).toBe('online');
});
