// Zulip's `verify_action`, for our chat list: for each action that emits events, a client's state built from a
// fresh fetch before the action, with the action's events applied by the client's own code (the chat-list store
// of packages/shared, as the browser runs it), must equal a fresh fetch after it — for every person it touches.
// One test catches the whole class of "the event says less, or other, than the server's state": unread counts,
// previews, read marks, names, members, auto-delete intervals. Runs on both databases.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { startServer, type TestServer } from './helpers/server.js';
import { events, flowUrl, privateChat, request, sendFrame, sendText, signUp, SocketProbe, upload, type Person } from './helpers/client.js';

/** What this test needs of the client's chat-list store (typed here: the client's code is built for browsers). */
interface ChatsStore {
  getState(): {
    chats: Array<Record<string, unknown> & { id: number }>;
    reset(): void;
    applyList(response: unknown): number;
    applyEvent(event: unknown, myId: number): void;
  };
}

// A specifier the type checker does not follow (the client's modules resolve like a bundler's, not like Node's).
const storePath = fileURLToPath(new URL('../../packages/shared/src/stores/chats.ts', import.meta.url));
const { useChatsStore } = (await import(storePath)) as { useChatsStore: ChatsStore };

/** The client's API calls (a chat it does not know yet) go to this server, as the person whose state is checked. */
let viewerToken = '';
let serverUrl = '';
const realFetch = globalThis.fetch;
globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) => {
  if (typeof input === 'string' && input.startsWith('/api/')) {
    return realFetch(`${serverUrl}${input}`, { ...init, headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${viewerToken}` } });
  }
  return realFetch(input, init);
}) as typeof fetch;

async function chatList(server: TestServer, person: Person): Promise<{ seq: number; chats: Array<{ id: number }> }> {
  const response = await request(server, 'GET', '/chat/list', { token: person.token });
  assert.equal(response.status, 200);
  return response.body;
}

/** The list as a person sees it, by chat id, in a form two equal states share. */
function comparable(chats: Array<Record<string, unknown> & { id: number }>): Record<number, unknown> {
  return Object.fromEntries(chats.map((chat) => [chat.id, chat]));
}

/**
 * Runs `action`, then checks for each person that (list before) + (their events up to the list after) gives the
 * list after. Returns what `action` returned.
 */
async function verifyAction<T>(server: TestServer, people: Person[], action: () => Promise<T>): Promise<T> {
  const before = await Promise.all(people.map((person) => chatList(server, person)));
  const flows = await Promise.all(people.map((person, index) => SocketProbe.open(flowUrl(server, person.token, before[index]!.seq))));
  try {
    const result = await action();
    for (const [index, person] of people.entries()) {
      const afterList = await chatList(server, person);
      const flow = flows[index]!;
      // Every event up to the fresh list's position, in order (the flow replays from `before.seq`).
      await flow.until((frames) => events(frames).some((frame) => frame.seq >= afterList.seq) || afterList.seq === before[index]!.seq);
      const applied = events(flow.frames).filter((frame) => frame.seq > before[index]!.seq && frame.seq <= afterList.seq);
      assert.deepEqual(
        applied.map((frame) => frame.seq),
        Array.from({ length: afterList.seq - before[index]!.seq }, (_, offset) => before[index]!.seq + 1 + offset),
        'the events are gapless',
      );

      viewerToken = person.token;
      const store = useChatsStore.getState();
      store.reset();
      store.applyList(before[index]);
      for (const event of applied) useChatsStore.getState().applyEvent(event, person.id);
      const expected = comparable(afterList.chats as never);
      // The client may fetch a chat it did not know (an event naming it): wait for that, then compare.
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && Object.keys(comparable(useChatsStore.getState().chats)).length !== Object.keys(expected).length) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.deepEqual(
        comparable(useChatsStore.getState().chats),
        expected,
        `person ${index + 1} of ${people.length}: their list from events (${applied.map((frame) => frame.event_type).join(', ') || 'none'}) differs from a fresh fetch`,
      );
    }
    return result;
  } finally {
    for (const flow of flows) flow.close();
  }
}

async function group(server: TestServer, owner: Person, members: Person[], name = 'Verifiers'): Promise<any> {
  const created = await request(server, 'POST', '/chat/create', {
    token: owner.token,
    body: { chat_type: 'group', name, participants: members.map((member) => member.id) },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body.chat;
}

describe('verify_action: a list from events equals a fresh fetch', () => {
  let server: TestServer;
  let anna: Person;
  let boris: Person;
  let vika: Person;
  before(async () => {
    server = await startServer();
    serverUrl = server.url;
    anna = await signUp(server, { name: 'Anna' });
    boris = await signUp(server, { name: 'Boris' });
    vika = await signUp(server, { name: 'Vika' });
  });
  after(async () => {
    globalThis.fetch = realFetch;
    await server.close();
  });

  it('a private chat: create, texts both ways, a reply, a file, own messages reading the chat, read, delete', async () => {
    const chatId = await verifyAction(server, [anna, boris], () => privateChat(server, anna, boris));
    const first = await verifyAction(server, [anna, boris], () => sendText(server, anna, chatId, 'hello'));
    await verifyAction(server, [anna, boris], () => sendText(server, boris, chatId, 'hi'));
    await verifyAction(server, [anna, boris], () => sendText(server, boris, chatId, 'how are you?'));
    await verifyAction(server, [anna, boris], () => sendFrame(server, anna, { chat_id: chatId, text: 'fine', reply_to_id: first.message.id }));
    const uploaded = await upload(server, anna);
    assert.equal(uploaded.status, 201, JSON.stringify(uploaded.body));
    await verifyAction(server, [anna, boris], () => sendFrame(server, anna, { chat_id: chatId, message_type: 'image', file_path: uploaded.body.file.path }));
    const last = await sendText(server, anna, chatId, 'unread for Boris');
    await verifyAction(server, [anna, boris], () => request(server, 'PUT', `/chat/read?chat_id=${chatId}&message_id=${first.message.id}`, { token: boris.token }));
    await verifyAction(server, [anna, boris], () => request(server, 'DELETE', `/chat/message/${last.message.id}`, { token: anna.token }));
    await verifyAction(server, [anna, boris], () => request(server, 'DELETE', `/chat/message/${first.message.id}`, { token: anna.token }));
    await verifyAction(server, [anna, boris], () => request(server, 'PUT', `/chat/read?chat_id=${chatId}`, { token: boris.token }));
  });

  it('a group: create, mentions, rename, auto-delete interval, add, join by code, leave, remove', async () => {
    await request(server, 'PUT', '/user/edit', { token: boris.token, body: { username: `boris_${boris.id}` } });
    const created = await verifyAction(server, [anna, boris], () => group(server, anna, [boris]));
    const chatId = created.id as number;
    await verifyAction(server, [anna, boris], () => sendText(server, anna, chatId, `@boris_${boris.id} look`));
    await verifyAction(server, [anna, boris], () => request(server, 'PUT', '/chat/edit', { token: anna.token, body: { chat_id: chatId, name: 'Renamed' } }));
    await verifyAction(server, [anna, boris], () => request(server, 'PUT', '/chat/interval', { token: anna.token, body: { chat_id: chatId, interval: 86400 } }));
    await verifyAction(server, [anna, boris], () => sendText(server, boris, chatId, 'expires in a day'));
    await verifyAction(server, [anna, boris, vika], () =>
      request(server, 'PUT', '/chat/manage-participants', { token: anna.token, body: { chat_id: chatId, actions: [{ add: true, participants: [vika.id] }] } }),
    );
    await verifyAction(server, [anna, boris, vika], () =>
      request(server, 'PUT', '/chat/manage-participants', { token: anna.token, body: { chat_id: chatId, actions: [{ add: false, participants: [vika.id] }] } }),
    );
    const invite = (await request(server, 'GET', `/chat/${chatId}`, { token: anna.token })).body.chat.invite_code as string;
    await verifyAction(server, [anna, boris, vika], () => request(server, 'POST', '/chat/join', { token: vika.token, body: { code: invite } }));
    await verifyAction(server, [anna, boris, vika], () => sendText(server, vika, chatId, 'joined'));
    await verifyAction(server, [anna, boris, vika], () => request(server, 'DELETE', `/chat/${chatId}`, { token: vika.token }));
  });

  it('calls: a call and its decline, a call while the callee is busy, each message counted like any other', async () => {
    const chatId = await privateChat(server, boris, vika);
    await sendText(server, vika, chatId, 'unread for Boris before he calls');
    await verifyAction(server, [boris, vika], () => request(server, 'POST', '/meet/call', { token: boris.token, body: { chat_id: chatId } }));
    await verifyAction(server, [boris, vika], () => request(server, 'POST', '/meet/reject', { token: vika.token, body: { chat_id: chatId } }));
    // Boris calls Vika again (ringing, so he is in a call); Anna calls Boris: busy at once.
    const annaAndBoris = await privateChat(server, anna, boris);
    const started = await request(server, 'POST', '/meet/call', { token: boris.token, body: { chat_id: chatId } });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const busy = await verifyAction(server, [anna, boris], () => request(server, 'POST', '/meet/call', { token: anna.token, body: { chat_id: annaAndBoris } }));
    assert.equal(busy.body.busy, true, JSON.stringify(busy.body));
    await verifyAction(server, [boris, vika], () => request(server, 'POST', '/meet/reject', { token: vika.token, body: { chat_id: chatId } }));
  });

  it('every message deleted: the preview says so, in its place', async () => {
    const chatId = await privateChat(server, vika, boris);
    const only = await sendText(server, vika, chatId, 'soon gone');
    await verifyAction(server, [vika, boris], () => request(server, 'DELETE', `/chat/message/${only.message.id}`, { token: vika.token }));
    await verifyAction(server, [vika, boris], () => sendText(server, boris, chatId, 'and a new one'));
  });

  it('blocking a person', async () => {
    const chatId = await privateChat(server, vika, anna);
    await sendText(server, vika, chatId, 'before the block');
    await verifyAction(server, [anna, vika], () => request(server, 'PUT', '/user/block', { token: anna.token, body: { user_id: vika.id, blocked: true } }));
    await verifyAction(server, [anna, vika], () => request(server, 'PUT', '/user/block', { token: anna.token, body: { user_id: vika.id, blocked: false } }));
  });
});
