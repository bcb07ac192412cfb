// Zulip's `verify_action`, for our chat list: for each action that emits events, a client's state built from a
// fresh fetch before the action, with the action's events applied by the client's own code (the chat-list store
// of packages/shared, as the browser runs it), must equal a fresh fetch after it — for every person it touches.
// One test catches the whole class of "the event says less, or other, than the server's state": unread counts,
// previews, read marks, names, members, auto-delete intervals. Runs on both databases.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { FLOW_EVENT_TYPES } from '@messenger/protocol';
import { startServer, type TestServer } from './helpers/server.js';
import { makeStaff } from './helpers/staff.js';
import { MeetClient } from './helpers/meet-client.js';
import {
  chatSocketUrl,
  events,
  flowUrl,
  pngBytes,
  privateChat,
  randomPhone,
  request,
  sendFrame,
  sendText,
  signUp,
  SocketProbe,
  upload,
  waitFor,
  type Person,
} from './helpers/client.js';

/** What this test needs of the client's code (typed here: it is built for browsers, not checked with the server). */
interface Store<T> {
  getState(): T;
  setState(state: Partial<T>): void;
}
type Row = Record<string, unknown> & { id: number };
interface ClientModules {
  applyFlowEvent(event: unknown): void;
  chats: Store<{ chats: Row[]; reset(): void; applyList(response: unknown): number }>;
  contacts: Store<{ contacts: Row[]; reset(): void; hydrate(contacts: unknown[]): void }>;
  users: Store<{ profiles: Record<number, Row>; reset(): void }>;
  auth: Store<{ user: unknown }>;
}

// Specifiers the type checker does not follow (the client's modules resolve like a bundler's, not like Node's).
const clientModule = (path: string) => import(fileURLToPath(new URL(`../../packages/shared/src/${path}.ts`, import.meta.url)));
const client: ClientModules = {
  applyFlowEvent: (await clientModule('services/session')).applyFlowEvent,
  chats: (await clientModule('stores/chats')).useChatsStore,
  contacts: (await clientModule('stores/contacts')).useContactsStore,
  users: (await clientModule('stores/users')).useUsersStore,
  auth: (await clientModule('stores/auth')).useAuthStore,
};

/**
 * Every event type of the wire contract; the last test checks that the actions above produced each of them (and
 * the sockets' probes, that each event they carried is what the contract says).
 */
const EVENT_TYPES = FLOW_EVENT_TYPES;
const seenTypes = new Set<string>();

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

async function get(server: TestServer, person: Person, path: string): Promise<any> {
  const response = await request(server, 'GET', path, { token: person.token });
  assert.equal(response.status, 200, `${path}: ${JSON.stringify(response.body)}`);
  return response.body;
}

/** What one person's client shows, read fresh from the server: their chat list (with its people) and contacts. */
async function freshState(server: TestServer, person: Person) {
  const [list, contacts, me] = await Promise.all([get(server, person, '/chat/list'), get(server, person, '/user/contacts'), get(server, person, '/user')]);
  return { list: list as { seq: number; chats: Row[]; users: Row[] }, contacts: contacts.contacts as Row[], me: me.user };
}

const byId = (rows: Row[]) => Object.fromEntries(rows.map((row) => [row.id, row]));

/**
 * Runs `action`, then checks for each person that (their state before) + (their events up to the state after),
 * applied by the client's own code, gives the state after. Returns what `action` returned.
 */
async function verifyAction<T>(server: TestServer, people: Person[], action: () => Promise<T>): Promise<T> {
  const before = await Promise.all(people.map((person) => freshState(server, person)));
  const flows = await Promise.all(people.map((person, index) => SocketProbe.open(flowUrl(server, person.token, before[index]!.list.seq))));
  try {
    const result = await action();
    // An action that was refused changes nothing: the comparison would prove nothing.
    const answer = result as { status?: unknown; type?: unknown } | undefined;
    if (typeof answer?.status === 'number') assert.ok(answer.status < 300, `the action was refused: ${JSON.stringify(result)}`);
    if (answer?.type === 'error') assert.fail(`the action was refused: ${JSON.stringify(result)}`);
    for (const [index, person] of people.entries()) {
      const start = before[index]!;
      const fresh = await freshState(server, person);
      const flow = flows[index]!;
      // Every event up to the fresh list's position, in order (the flow replays from the earlier one).
      await flow.until((frames) => fresh.list.seq === start.list.seq || events(frames).some((frame) => frame.seq >= fresh.list.seq));
      const applied = events(flow.frames).filter((frame) => frame.seq > start.list.seq && frame.seq <= fresh.list.seq);
      assert.deepEqual(
        applied.map((frame) => frame.seq),
        Array.from({ length: fresh.list.seq - start.list.seq }, (_, offset) => start.list.seq + 1 + offset),
        'the events are gapless',
      );
      for (const event of applied) seenTypes.add(event.event_type);

      viewerToken = person.token;
      client.chats.getState().reset();
      client.contacts.getState().reset();
      client.users.getState().reset();
      client.auth.setState({ user: start.me });
      client.chats.getState().applyList(start.list);
      client.contacts.getState().hydrate(start.contacts);
      for (const event of applied) client.applyFlowEvent(event);
      // The client may fetch a chat it did not know (an event naming it) and then its people: wait, then compare.
      const settled = () =>
        client.chats.getState().chats.length === fresh.list.chats.length && fresh.list.users.every((user) => client.users.getState().profiles[user.id]);
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && !settled()) await new Promise((resolve) => setTimeout(resolve, 20));
      const what = `person ${index + 1} of ${people.length}, after ${applied.map((frame) => frame.event_type).join(', ') || 'no events'}`;
      assert.deepEqual(byId(client.chats.getState().chats), byId(fresh.list.chats), `${what}: their chat list differs from a fresh fetch`);
      assert.deepEqual(byId(client.contacts.getState().contacts), byId(fresh.contacts), `${what}: their contacts differ from a fresh fetch`);
      const profiles = client.users.getState().profiles;
      assert.deepEqual(
        byId(fresh.list.users.map((user) => profiles[user.id] ?? { id: user.id, missing: true })),
        byId(fresh.list.users),
        `${what}: the people of their chats differ from a fresh fetch`,
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

  const file = async (person: Person, name: string, type: string, data: string | Buffer) => {
    const uploaded = await upload(server, person, { name, type, data });
    assert.equal(uploaded.status, 201, JSON.stringify(uploaded.body));
    return uploaded.body.file.path as string;
  };

  it('a private chat: create, texts both ways, a reply, a file, own messages reading the chat, read, delete', async () => {
    // Anna knows Boris's phone (she typed it in): the events about him must not drop it from what she sees.
    await verifyAction(server, [anna], () => request(server, 'POST', '/user/contacts/add', { token: anna.token, body: { user_phone: boris.phone, name: 'B' } }));
    const chatId = await verifyAction(server, [anna, boris], () => privateChat(server, anna, boris));
    const first = await verifyAction(server, [anna, boris], () => sendText(server, anna, chatId, 'hello'));
    await verifyAction(server, [anna, boris], () => sendText(server, boris, chatId, 'hi'));
    await verifyAction(server, [anna, boris], () => sendText(server, boris, chatId, 'how are you?'));
    await verifyAction(server, [anna, boris], () => sendFrame(server, anna, { chat_id: chatId, text: 'fine', reply_to_id: first.message.id }));
    const image = await file(anna, 'cat.png', 'image/png', pngBytes());
    await verifyAction(server, [anna, boris], () => sendFrame(server, anna, { chat_id: chatId, message_type: 'image', file_path: image, meta: { width: 64, height: 64 } }));
    const voice = await file(boris, 'voice.webm', 'audio/webm;codecs=opus', 'OggS fake audio');
    await verifyAction(server, [anna, boris], () => sendFrame(server, boris, { chat_id: chatId, message_type: 'audio', file_path: voice, meta: { duration_ms: 5300 } }));
    const clip = await file(anna, 'clip.mp4', 'video/mp4', 'fake video');
    await verifyAction(server, [anna, boris], () => sendFrame(server, anna, { chat_id: chatId, message_type: 'video', file_path: clip }));
    const report = await file(boris, 'report.pdf', 'application/pdf', '%PDF-1.4');
    const documentSent = await verifyAction(server, [anna, boris], () => sendFrame(server, boris, { chat_id: chatId, message_type: 'document', file_path: report }));
    // A reaction to, and an edit of, the chat's latest message: the preview shows it as it now is.
    await verifyAction(server, [anna, boris], () =>
      request(server, 'PUT', `/chat/message/${documentSent.message.id}/reaction`, { token: anna.token, body: { emoji: '👍' } }),
    );
    const edited = await sendText(server, anna, chatId, 'typo');
    await verifyAction(server, [anna, boris], () => request(server, 'PUT', `/chat/message/${edited.message.id}`, { token: anna.token, body: { text: 'no typo' } }));
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
    // Removed, she is back only when the owner adds her; then she leaves of her own accord, and the code lets her in.
    await verifyAction(server, [anna, boris, vika], () =>
      request(server, 'PUT', '/chat/manage-participants', { token: anna.token, body: { chat_id: chatId, actions: [{ add: true, participants: [vika.id] }] } }),
    );
    await verifyAction(server, [anna, boris, vika], () => request(server, 'DELETE', `/chat/${chatId}`, { token: vika.token }));
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
    // A group call: its message reaches the caller's other tabs too; the caller gives up before anyone answers.
    const groupChat = await group(server, anna, [boris, vika], 'Callers');
    const groupCall = await verifyAction(server, [anna, boris, vika], () => request(server, 'POST', '/meet/call', { token: anna.token, body: { chat_id: groupChat.id } }));
    await verifyAction(server, [anna, boris, vika], async () => {
      const socket = await SocketProbe.open(chatSocketUrl(server, anna.token));
      try {
        socket.send({ type: 'hang', text: String(groupChat.id), call_id: groupCall.body.call.id });
        return (await socket.until((frames) => frames.some((frame) => frame.type === 'hung' || frame.type === 'error'))).at(-1);
      } finally {
        socket.close();
      }
    });
    // Boris calls Vika again (ringing, so he is in a call); Anna calls Boris: busy at once.
    const annaAndBoris = await privateChat(server, anna, boris);
    const started = await request(server, 'POST', '/meet/call', { token: boris.token, body: { chat_id: chatId } });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const busy = await verifyAction(server, [anna, boris], () => request(server, 'POST', '/meet/call', { token: anna.token, body: { chat_id: annaAndBoris } }));
    assert.equal(busy.body.busy, true, JSON.stringify(busy.body));
    await verifyAction(server, [boris, vika], () => request(server, 'POST', '/meet/reject', { token: vika.token, body: { chat_id: chatId } }));
    // Boris calls once more and Vika answers: her other tabs stop ringing (call-answered).
    assert.equal((await request(server, 'POST', '/meet/call', { token: boris.token, body: { chat_id: chatId } })).status, 200);
    const meetingOf = async (person: Person) => {
      const ticket = await request(server, 'GET', `/meet/get-token?chat_id=${chatId}`, { token: person.token });
      return MeetClient.join(server, chatId, ticket.body.token);
    };
    const borisMeet = await meetingOf(boris);
    const vikaMeet = await verifyAction(server, [boris, vika], async () => {
      const meet = await meetingOf(vika);
      // In the room: her join (and its event) is done.
      await waitFor(() => meet.participantFrames().length > 0, 'Vika in the room');
      return meet;
    });
    await vikaMeet.close();
    await borisMeet.close();
  });

  it('every message deleted: the preview says so, in its place', async () => {
    const chatId = await privateChat(server, vika, boris);
    const only = await sendText(server, vika, chatId, 'soon gone');
    await verifyAction(server, [vika, boris], () => request(server, 'DELETE', `/chat/message/${only.message.id}`, { token: vika.token }));
    await verifyAction(server, [vika, boris], () => sendText(server, boris, chatId, 'and a new one'));
  });

  it('contacts: added by username, its phone typed in later, renamed, removed — the list and the profile follow', async () => {
    const gleb = await signUp(server, { name: 'Gleb' });
    const username = `gleb${gleb.id}`;
    assert.equal((await request(server, 'PUT', '/user/edit', { token: gleb.token, body: { username } })).status, 200);
    // A chat of theirs, started by Gleb: his profile is in Anna's chat list, where a phone she knows would show.
    await privateChat(server, gleb, anna);
    await verifyAction(server, [anna], () => request(server, 'POST', '/user/contacts/add', { token: anna.token, body: { username, name: 'G' } }));
    // His phone, typed in now: "already a contact" (409), yet the phone is known from now on, and shows.
    await verifyAction(server, [anna], async () => {
      const again = await request(server, 'POST', '/user/contacts/add', { token: anna.token, body: { user_phone: gleb.phone, name: 'G' } });
      assert.equal(again.status, 409);
    });
    await verifyAction(server, [anna], () => request(server, 'PUT', '/user/contacts/edit', { token: anna.token, body: { user_id: gleb.id, name: 'Gleb S.' } }));
    await verifyAction(server, [anna], () => request(server, 'DELETE', `/user/contacts/${gleb.id}`, { token: anna.token }));
  });

  it('profiles and contacts: a changed name reaches whoever shows it; an invited phone joining becomes a contact', async () => {
    await verifyAction(server, [anna, boris, vika], () => request(server, 'PUT', '/user/edit', { token: boris.token, body: { name: 'Boris B.' } }));
    const phone = randomPhone();
    await request(server, 'POST', '/user/contacts/add', { token: anna.token, body: { user_phone: phone, name: 'Dasha' } });
    await verifyAction(server, [anna], () => signUp(server, { phone }));
  });

  it('an admin blocks a person and lets them back: their chat partners see it as a fresh fetch does', async () => {
    const admin = await signUp(server, { name: 'Admin' });
    await makeStaff(server, admin, 2);
    const mallory = await signUp(server, { name: 'Mallory' });
    const chatId = await privateChat(server, anna, mallory);
    await sendText(server, mallory, chatId, 'before the block');
    await verifyAction(server, [anna], () => request(server, 'PUT', '/user/block', { token: admin.token, body: { user_id: mallory.id, blocked: true } }));
    await verifyAction(server, [anna], () => request(server, 'PUT', '/user/block', { token: admin.token, body: { user_id: mallory.id, blocked: false } }));
  });

  it('auto-delete: a message that expires is swept, and the list from events shows what a fresh fetch does', async () => {
    // Its only message: with none left, an expired one is not "Message deleted" (that is for a person's deletion).
    const chatId = await privateChat(server, anna, vika);
    await request(server, 'PUT', '/chat/interval', { token: anna.token, body: { chat_id: chatId, interval: 5 } });
    const fleeting = await sendText(server, vika, chatId, 'gone in 5 s');
    // Its expiry brought forward (groups.test checks the interval sets it): the sweep, not the wait, is the point.
    await server.db.query(`UPDATE messages SET expires_at = now() + interval '300 milliseconds' WHERE id = $1`, [fleeting.message.id]);
    await verifyAction(server, [anna, vika], () =>
      waitFor(async () => {
        const chat = (await request(server, 'GET', `/chat/${chatId}`, { token: anna.token })).body.chat;
        return chat.last_message?.id !== fleeting.message.id;
      }, 'the sweeper to take the expired message'),
    );
  });

  it('the actions above produced every event type there is', () => {
    assert.deepEqual(EVENT_TYPES.filter((type) => !seenTypes.has(type)), [], 'event types no action here produced');
  });
});
