import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, testDatabase, type TestServer } from './helpers/server.js';
import { openDatabase } from '../src/db/index.js';
import { EventBus } from '../src/events/bus.js';
import { EventLog } from '../src/events/log.js';
import { ExpirySweeper } from '../src/modules/messages/expiry.js';
import { type Person, events, nextEvent, openFlow, privateChat, request, sendText, signUp } from './helpers/client.js';
import { makeStaff } from './helpers/staff.js';

async function createGroup(server: TestServer, owner: Person, members: Person[], extra: Record<string, unknown> = {}): Promise<any> {
  const created = await request(server, 'POST', '/chat/create', {
    token: owner.token,
    body: { chat_type: 'group', name: 'Team', participants: members.map((member) => member.id), ...extra },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body.chat;
}

describe('groups', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  it('creates a group: the creator owns it and alone sees its invite code; chat-created and invited-to-chat', async () => {
    const anna = await signUp(server, { name: 'Anna' });
    const boris = await signUp(server);
    const carl = await signUp(server);
    const annaFlow = await openFlow(server, anna);
    const borisFlow = await openFlow(server, boris);
    const chat = await createGroup(server, anna, [boris, carl, boris], { name: '  Team  ' });
    assert.equal(chat.chat_type, 'group');
    assert.equal(chat.name, 'Team');
    assert.equal(chat.owner_id, anna.id);
    assert.equal(chat.is_secret, false);
    assert.match(chat.invite_code, /^C-[A-Za-z0-9]{10}$/);
    assert.ok(chat.invite_link.endsWith(`/link/${chat.invite_code}`));
    assert.deepEqual([...chat.participants].sort(), [anna.id, boris.id, carl.id].sort());

    const created = await nextEvent(annaFlow, (event) => event.event_type === 'chat-created');
    assert.equal(created.additional_info.chat_id, chat.id);
    assert.equal(created.additional_info.user.id, anna.id);
    const invited = await nextEvent(borisFlow, (event) => event.event_type === 'invited-to-chat');
    assert.equal(invited.additional_info.chat_id, chat.id);
    assert.equal(invited.additional_info.user.id, anna.id);
    assert.equal(invited.additional_info.chat.invite_code, null, 'only the owner sees the code');
    assert.equal(invited.additional_info.chat.invite_link, null);

    const seenByBoris = await request(server, 'GET', `/chat/${chat.id}`, { token: boris.token });
    assert.equal(seenByBoris.body.chat.invite_code, null);
    const list = await request(server, 'GET', '/chat/list', { token: anna.token });
    assert.equal(list.body.chats.find((row: any) => row.id === chat.id).invite_code, chat.invite_code);
    annaFlow.close();
    borisFlow.close();
  });

  it('validates a new group: name, participants, secret for staff only', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const body = (extra: Record<string, unknown>) => ({ chat_type: 'group', name: 'G', participants: [boris.id], ...extra });
    const attempt = (extra: Record<string, unknown>) => request(server, 'POST', '/chat/create', { token: anna.token, body: body(extra) });
    assert.equal((await attempt({ name: '   ' })).body.error, 'invalid_name');
    assert.equal((await attempt({ name: 'x'.repeat(61) })).body.error, 'invalid_name');
    assert.equal((await attempt({ name: ` ${'x'.repeat(60)} ` })).status, 201, 'trimmed to 60');
    // Characters are code points: 60 emoji are 60 characters, 61 are too many.
    assert.equal((await attempt({ name: '🦊'.repeat(60) })).status, 201);
    assert.equal((await attempt({ name: '🦊'.repeat(61) })).body.error, 'invalid_name');
    assert.equal((await attempt({ participants: [] })).body.error, 'participants_required');
    assert.equal((await attempt({ participants: [anna.id] })).body.error, 'participants_required', 'oneself does not count');
    const ghost = await attempt({ participants: [boris.id, 9_876_543] });
    assert.deepEqual([ghost.status, ghost.body.message], [404, 'no such user']);
    const secret = await attempt({ is_secret: true, participants: [] });
    assert.deepEqual([secret.status, secret.body.error], [403, 'secret_chats_staff_only']);
    assert.equal((await attempt({ owner_id: boris.id })).status, 400, 'mass assignment refused');
    const notAnImage = await attempt({ avatar: '2024/01/0123456789abcdef0123456789abcdef.png' });
    assert.deepEqual([notAnImage.status, notAnImage.body.error], [400, 'invalid_avatar']);
  });

  it('renames and changes members; a non-owner is refused and nothing changes; a removed member hears nothing more', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const dave = await signUp(server);
    const eve = await signUp(server);
    const chat = await createGroup(server, anna, [boris]);
    const borisFlow = await openFlow(server, boris);
    const daveFlow = await openFlow(server, dave);

    const borisRename = await request(server, 'PUT', '/chat/edit', { token: boris.token, body: { chat_id: chat.id, name: 'Mine' } });
    assert.deepEqual([borisRename.status, borisRename.body.error], [403, 'owner_only']);
    const borisAdds = await request(server, 'PUT', '/chat/manage-participants', {
      token: boris.token,
      body: { chat_id: chat.id, actions: [{ add: true, participants: [eve.id] }] },
    });
    assert.equal(borisAdds.status, 403);
    const unchanged = (await request(server, 'GET', `/chat/${chat.id}`, { token: anna.token })).body.chat;
    assert.equal(unchanged.name, 'Team');
    assert.deepEqual([...unchanged.participants].sort(), [anna.id, boris.id].sort());
    assert.equal((await request(server, 'PUT', '/chat/edit', { token: eve.token, body: { chat_id: chat.id, name: 'x' } })).status, 404);

    const renamed = await request(server, 'PUT', '/chat/edit', { token: anna.token, body: { chat_id: chat.id, name: 'Renamed' } });
    assert.equal(renamed.body.chat.name, 'Renamed');
    const update = await nextEvent(borisFlow, (event) => event.event_type === 'chat-updated');
    assert.equal(update.additional_info.chat.name, 'Renamed');

    const added = await request(server, 'PUT', '/chat/manage-participants', {
      token: anna.token,
      body: { chat_id: chat.id, actions: [{ add: true, participants: [dave.id] }] },
    });
    assert.deepEqual([...added.body.chat.participants].sort(), [anna.id, boris.id, dave.id].sort());
    const invited = await nextEvent(daveFlow, (event) => event.event_type === 'invited-to-chat');
    assert.equal(invited.additional_info.chat.name, 'Renamed');
    await nextEvent(borisFlow, (event) => event.event_type === 'chat-updated' && event.additional_info.chat.participants.includes(dave.id));

    const ownerOut = await request(server, 'PUT', '/chat/manage-participants', {
      token: anna.token,
      body: { chat_id: chat.id, actions: [{ add: false, participants: [anna.id] }] },
    });
    assert.deepEqual([ownerOut.status, ownerOut.body.error], [400, 'owner_cannot_be_removed']);

    const removed = await request(server, 'PUT', '/chat/manage-participants', {
      token: anna.token,
      body: { chat_id: chat.id, actions: [{ add: false, participants: [boris.id] }] },
    });
    assert.deepEqual([...removed.body.chat.participants].sort(), [anna.id, dave.id].sort());
    await nextEvent(borisFlow, (event) => event.event_type === 'chat-deleted' && event.additional_info.chat_id === chat.id);
    await nextEvent(daveFlow, (event) => event.event_type === 'chat-updated' && !event.additional_info.chat.participants.includes(boris.id));

    // After the removal: a message and a rename in the group, then an event of Boris's own as a marker.
    assert.equal((await sendText(server, anna, chat.id, 'after boris left')).type, 'ack');
    await request(server, 'PUT', '/chat/edit', { token: anna.token, body: { chat_id: chat.id, name: 'Later' } });
    const carl = await signUp(server);
    await privateChat(server, carl, boris);
    const frames = await borisFlow.until((all) => events(all).some((event) => event.event_type === 'chat-created'));
    const afterRemoval = events(frames).slice(events(frames).findIndex((event) => event.event_type === 'chat-deleted') + 1);
    assert.deepEqual(afterRemoval.map((event) => event.event_type), ['chat-created'], 'only the marker');
    assert.ok(!JSON.stringify(frames).includes('after boris left'));
    assert.equal((await request(server, 'GET', `/chat/${chat.id}`, { token: boris.token })).status, 404);
    assert.equal((await request(server, 'GET', `/chat/history?chat_id=${chat.id}`, { token: boris.token })).status, 404);
    assert.equal((await sendText(server, boris, chat.id, 'let me back')).status, 404);
    await nextEvent(daveFlow, (event) => event.additional_info.message?.text === 'after boris left');
    borisFlow.close();
    daveFlow.close();
  });

  it('joins by code: bad format 400, unknown 404, success with events, a second join changes nothing', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const eve = await signUp(server);
    const chat = await createGroup(server, anna, [boris]);
    await sendText(server, anna, chat.id, 'before eve');
    for (const code of ['C-123', 'X-abcdefghij', 'C-abcdefghi!', '']) {
      const bad = await request(server, 'POST', '/chat/join', { token: eve.token, body: { code } });
      assert.deepEqual([bad.status, bad.body.error], [400, 'invalid_code'], code);
    }
    const unknown = await request(server, 'POST', '/chat/join', { token: eve.token, body: { code: 'C-AAAAAAAAAA' } });
    assert.deepEqual([unknown.status, unknown.body.error, unknown.body.message], [404, 'chat_code_unknown', 'No chat has this code']);

    const annaFlow = await openFlow(server, anna);
    const eveFlow = await openFlow(server, eve);
    const joined = await request(server, 'POST', '/chat/join', { token: eve.token, body: { code: chat.invite_code } });
    assert.equal(joined.status, 200);
    assert.equal(joined.body.chat.id, chat.id);
    assert.equal(joined.body.chat.invite_code, null);
    assert.equal(joined.body.chat.unread_messages, 0, 'what came before joining is not unread');
    const created = await nextEvent(eveFlow, (event) => event.event_type === 'chat-created');
    assert.equal(created.additional_info.chat_id, chat.id);
    const updated = await nextEvent(annaFlow, (event) => event.event_type === 'chat-updated');
    assert.ok(updated.additional_info.chat.participants.includes(eve.id));
    assert.equal(updated.additional_info.chat.invite_code, chat.invite_code, 'the owner’s view');

    const again = await request(server, 'POST', '/chat/join', { token: eve.token, body: { code: chat.invite_code } });
    assert.equal(again.status, 200);
    await sendText(server, anna, chat.id, 'marker');
    const frames = await eveFlow.until((all) => events(all).some((event) => event.additional_info.message?.text === 'marker'));
    assert.deepEqual(events(frames).map((event) => event.event_type), ['chat-created', 'text'], 'no event for the second join');
    annaFlow.close();
    eveFlow.close();
  });

  it('lets staff make secret groups, and admins find and delete every secret group', async () => {
    const manager = await signUp(server);
    const admin = await signUp(server);
    const user = await signUp(server);
    await server.db.query('UPDATE users SET role = 1 WHERE id = $1', [manager.id]);
    await makeStaff(server, admin, 2);
    // The role is read from the database: the manager's token still says 0.
    const secret = await createGroup(server, manager, [], { name: 'Secret Deal', is_secret: true });
    assert.equal(secret.is_secret, true);
    assert.deepEqual(secret.participants, [manager.id]);

    const byAdmin = await request(server, 'GET', '/chat/find?query=secret%20deal&is_admin=true', { token: admin.token });
    assert.equal(byAdmin.status, 200);
    assert.deepEqual(byAdmin.body.chats.map((chat: any) => chat.id), [secret.id]);
    assert.equal(byAdmin.body.chats[0].invite_code, null);
    const byUser = await request(server, 'GET', '/chat/find?query=secret&is_admin=true', { token: user.token });
    assert.deepEqual([byUser.status, byUser.body.error], [403, 'admins_only']);
    assert.deepEqual((await request(server, 'GET', '/chat/find?query=secret', { token: user.token })).body.chats, []);

    const joined = await request(server, 'POST', '/chat/join', { token: user.token, body: { code: secret.invite_code } });
    assert.equal(joined.status, 200);
    // An admin who is in the group and leaves it (their header says "Leave group") leaves; the group stays.
    const member = await signUp(server);
    await makeStaff(server, member, 2);
    assert.equal((await request(server, 'POST', '/chat/join', { token: member.token, body: { code: secret.invite_code } })).status, 200);
    assert.equal((await request(server, 'DELETE', `/chat/${secret.id}`, { token: member.token })).status, 200);
    const left = await request(server, 'GET', `/chat/${secret.id}`, { token: user.token });
    assert.equal(left.status, 200);
    assert.deepEqual(left.body.chat.participants.sort(), [manager.id, user.id].sort());
    const managerFlow = await openFlow(server, manager);
    assert.equal((await request(server, 'DELETE', `/chat/${secret.id}`, { token: admin.token })).status, 200);
    await nextEvent(managerFlow, (event) => event.event_type === 'chat-deleted' && event.additional_info.chat_id === secret.id);
    assert.equal((await request(server, 'GET', `/chat/${secret.id}`, { token: user.token })).status, 404);
    managerFlow.close();
  });

  it('finds the caller’s chats by group name, contact alias, name or username', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server, { name: 'Boris' });
    const carl = await signUp(server, { name: 'Carl Jung' });
    await request(server, 'PUT', '/user/edit', { token: carl.token, body: { username: 'psycho_carl' } });
    const group = await createGroup(server, anna, [boris], { name: 'Project Apollo' });
    const withBoris = await privateChat(server, anna, boris);
    await request(server, 'PUT', '/user/contacts/edit', { token: anna.token, body: { user_id: boris.id, name: 'Bob Builder' } });
    const withCarl = (await request(server, 'POST', '/chat/create', { token: anna.token, body: { chat_type: 'private', participants: [carl.id] } })).body
      .chat.id;
    const find = async (query: string) =>
      (await request(server, 'GET', `/chat/find?query=${encodeURIComponent(query)}`, { token: anna.token })).body.chats.map((chat: any) => chat.id);
    assert.deepEqual(await find('APOLLO'), [group.id]);
    assert.deepEqual(await find('project apollo'), [group.id], 'spaces are ignored');
    assert.deepEqual(await find('bob build'), [withBoris]);
    assert.deepEqual(await find('carl'), [withCarl]);
    assert.deepEqual(await find('@psycho'), [withCarl]);
    assert.deepEqual(await find('zebra'), []);
    assert.deepEqual((await find('')).length, 3, 'an empty query lists every chat');
    assert.deepEqual(await find('100%'), []);
    assert.equal((await request(server, 'GET', `/chat/find?query=${'x'.repeat(121)}`, { token: anna.token })).status, 400);
  });

  it('keeps someone the owner removed from coming back by the code, until the owner adds them; leaving is no removal', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const carl = await signUp(server);
    const chat = await createGroup(server, anna, [boris, carl]);
    const manage = (add: boolean, person: Person) =>
      request(server, 'PUT', '/chat/manage-participants', { token: anna.token, body: { chat_id: chat.id, actions: [{ add, participants: [person.id] }] } });
    const join = (person: Person) => request(server, 'POST', '/chat/join', { token: person.token, body: { code: chat.invite_code } });
    const members = async () => (await request(server, 'GET', `/chat/${chat.id}`, { token: anna.token })).body.chat.participants.length;

    assert.equal((await manage(false, boris)).status, 200);
    const refused = await join(boris);
    assert.deepEqual([refused.status, refused.body.error], [403, 'removed_from_chat']);
    assert.equal(await members(), 2);
    // Added again by the owner, then leaving of his own accord: the code lets him in.
    assert.equal((await manage(true, boris)).status, 200);
    assert.equal((await request(server, 'DELETE', `/chat/${chat.id}`, { token: boris.token })).status, 200);
    assert.equal((await join(boris)).status, 200);
    assert.equal(await members(), 3);
    // Carl was never removed: he leaves and comes back.
    assert.equal((await request(server, 'DELETE', `/chat/${chat.id}`, { token: carl.token })).status, 200);
    assert.equal((await join(carl)).status, 200);
  });

  it('deletes: a member leaves, the owner deletes for everyone, a private chat goes for both', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const carl = await signUp(server);
    const chat = await createGroup(server, anna, [boris, carl]);
    const annaFlow = await openFlow(server, anna);
    const borisFlow = await openFlow(server, boris);
    const carlFlow = await openFlow(server, carl);

    assert.deepEqual((await request(server, 'DELETE', `/chat/${chat.id}`, { token: boris.token })).body, { deleted: true });
    await nextEvent(borisFlow, (event) => event.event_type === 'chat-deleted' && event.additional_info.chat_id === chat.id);
    const left = await nextEvent(annaFlow, (event) => event.event_type === 'chat-updated');
    assert.deepEqual([...left.additional_info.chat.participants].sort(), [anna.id, carl.id].sort());
    assert.equal((await request(server, 'GET', `/chat/${chat.id}`, { token: carl.token })).status, 200, 'the group stays for the others');

    assert.equal((await request(server, 'DELETE', `/chat/${chat.id}`, { token: anna.token })).status, 200);
    await nextEvent(carlFlow, (event) => event.event_type === 'chat-deleted' && event.additional_info.chat_id === chat.id);
    await nextEvent(annaFlow, (event) => event.event_type === 'chat-deleted' && event.additional_info.chat_id === chat.id);
    assert.equal((await request(server, 'GET', `/chat/${chat.id}`, { token: anna.token })).status, 404);

    const pair = await privateChat(server, anna, boris);
    await sendText(server, anna, pair, 'soon gone');
    assert.equal((await request(server, 'DELETE', `/chat/${pair}`, { token: carl.token })).status, 404, 'not his chat');
    assert.equal((await request(server, 'DELETE', `/chat/${pair}`, { token: boris.token })).status, 200);
    await nextEvent(annaFlow, (event) => event.event_type === 'chat-deleted' && event.additional_info.chat_id === pair);
    assert.equal((await request(server, 'GET', `/chat/${pair}`, { token: anna.token })).status, 404);
    assert.equal((await request(server, 'DELETE', `/chat/${pair}`, { token: anna.token })).status, 404);
    annaFlow.close();
    borisFlow.close();
    carlFlow.close();
  });

  it('keeps each person’s notification setting their own, told to them only', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const eve = await signUp(server);
    const chat = await createGroup(server, anna, [boris]);
    const annaFlow = await openFlow(server, anna);
    const borisFlow = await openFlow(server, boris);
    const off = await request(server, 'PUT', '/chat/notifications', { token: boris.token, body: { chat_id: chat.id, notifications: false } });
    assert.deepEqual(off.body, { chat_id: chat.id, notifications: false });
    const updated = await nextEvent(borisFlow, (event) => event.event_type === 'chat-updated');
    assert.equal(updated.additional_info.chat.notifications, false);
    assert.equal((await request(server, 'GET', `/chat/${chat.id}`, { token: boris.token })).body.chat.notifications, false);
    assert.equal((await request(server, 'GET', `/chat/${chat.id}`, { token: anna.token })).body.chat.notifications, true);
    await sendText(server, boris, chat.id, 'marker');
    const frames = await annaFlow.until((all) => events(all).some((event) => event.event_type === 'text'));
    assert.deepEqual(events(frames).map((event) => event.event_type), ['text'], 'Anna is not told of Boris’s setting');
    const outsider = await request(server, 'PUT', '/chat/notifications', { token: eve.token, body: { chat_id: chat.id, notifications: false } });
    assert.equal(outsider.status, 404);
    annaFlow.close();
    borisFlow.close();
  });

  it('sets the auto-delete interval: either person in a private chat, the owner in a group; chat-interval to all', async () => {
    const anna = await signUp(server, { name: 'Anna' });
    const boris = await signUp(server);
    const pair = await privateChat(server, anna, boris);
    const annaFlow = await openFlow(server, anna);
    const bad = await request(server, 'PUT', '/chat/interval', { token: boris.token, body: { chat_id: pair, interval: 7 } });
    assert.equal(bad.status, 400);
    const set = await request(server, 'PUT', '/chat/interval', { token: boris.token, body: { chat_id: pair, interval: 3600 } });
    assert.deepEqual(set.body, { chat_id: pair, interval: 3600 });
    const event = await nextEvent(annaFlow, (e) => e.event_type === 'chat-interval');
    assert.deepEqual([event.additional_info.chat_id, event.additional_info.interval, event.additional_info.user.id], [pair, 3600, boris.id]);
    const list = await request(server, 'GET', '/chat/list', { token: anna.token });
    assert.deepEqual(list.body.metadata.find((row: any) => row.chat_id === pair), { id: pair, chat_id: pair, interval: 3600 });

    const sent = await sendText(server, anna, pair, 'ephemeral');
    const lifetime = (Date.parse(sent.message.expires_at) - Date.parse(sent.message.created_at)) / 1000;
    assert.ok(Math.abs(lifetime - 3600) < 2, `expires ${lifetime}s after it was sent`);
    await request(server, 'PUT', '/chat/interval', { token: anna.token, body: { chat_id: pair, interval: 0 } });
    assert.equal((await sendText(server, anna, pair, 'lasting')).message.expires_at, null);

    const group = await createGroup(server, anna, [boris]);
    const notOwner = await request(server, 'PUT', '/chat/interval', { token: boris.token, body: { chat_id: group.id, interval: 60 } });
    assert.deepEqual([notOwner.status, notOwner.body.error], [403, 'owner_only']);
    assert.equal((await request(server, 'PUT', '/chat/interval', { token: anna.token, body: { chat_id: group.id, interval: 60 } })).status, 200);
    annaFlow.close();
  });
});

describe('message expiry', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  it('deletes an expired message like DELETE would: event, unread, last message', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const pair = await privateChat(server, anna, boris);
    await sendText(server, anna, pair, 'stays');
    await request(server, 'PUT', '/chat/interval', { token: anna.token, body: { chat_id: pair, interval: 86400 } });
    const doomed = (await sendText(server, anna, pair, 'expires')).message;
    assert.equal((await request(server, 'GET', `/chat/unread-count/${pair}`, { token: boris.token })).body.unread_messages, 2);
    const borisFlow = await openFlow(server, boris);
    // A day passes (in the database).
    await server.db.query(`UPDATE messages SET expires_at = now() - interval '1 second' WHERE id = $1`, [doomed.id]);
    assert.ok((await server.app.services.expiry.sweep()) >= 0);
    const deleted = await nextEvent(borisFlow, (event) => event.event_type === 'message-deleted');
    assert.equal(deleted.additional_info.message_id, doomed.id);
    assert.equal(deleted.additional_info.last_message.text, 'stays');
    assert.equal((await request(server, 'GET', `/chat/unread-count/${pair}`, { token: boris.token })).body.unread_messages, 1);
    const history = await request(server, 'GET', `/chat/history?chat_id=${pair}`, { token: boris.token });
    assert.deepEqual(history.body.messages.map((message: any) => message.text), ['stays']);
    const [row] = await server.db.query<{ deleted_at: Date | null }>('SELECT deleted_at FROM messages WHERE id = $1', [doomed.id]);
    assert.ok(row!.deleted_at, 'soft-deleted');
    borisFlow.close();
  });

  it('sweeps by itself within about a second of expiry', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const pair = await privateChat(server, anna, boris);
    await request(server, 'PUT', '/chat/interval', { token: anna.token, body: { chat_id: pair, interval: 5 } });
    const doomed = (await sendText(server, anna, pair, 'five seconds')).message;
    const borisFlow = await openFlow(server, boris);
    await server.db.query(`UPDATE messages SET expires_at = now() + interval '300 milliseconds' WHERE id = $1`, [doomed.id]);
    const started = Date.now();
    const deleted = await nextEvent(borisFlow, (event) => event.event_type === 'message-deleted', 4000);
    assert.equal(deleted.additional_info.message_id, doomed.id);
    assert.equal(deleted.additional_info.last_message, null);
    assert.ok(Date.now() - started < 2500, `${Date.now() - started} ms`);
    const list = await request(server, 'GET', '/chat/list', { token: boris.token });
    assert.equal(list.body.chats.find((chat: any) => chat.id === pair).last_message, null);
    borisFlow.close();
  });

  it('deletes at start-up what expired while the server was down', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const pair = await privateChat(server, anna, boris);
    await request(server, 'PUT', '/chat/interval', { token: anna.token, body: { chat_id: pair, interval: 3600 } });
    const doomed = (await sendText(server, anna, pair, 'expires while down')).message;
    await server.restart(async () => {
      // The server is down; an hour passes.
      await server.db.query(`UPDATE messages SET expires_at = now() - interval '1 minute' WHERE id = $1`, [doomed.id]);
    });
    const deadline = Date.now() + 3000;
    let deletedAt: unknown = null;
    while (!deletedAt && Date.now() < deadline) {
      deletedAt = (await server.db.query<{ deleted_at: unknown }>('SELECT deleted_at FROM messages WHERE id = $1', [doomed.id]))[0]!.deleted_at;
      if (!deletedAt) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(deletedAt, 'deleted by the first sweep');
    const logged = await server.db.query<{ user_id: number }>(
      `SELECT user_id FROM user_events WHERE event_type = 'message-deleted' AND (payload->>'message_id')::bigint = $1 ORDER BY user_id`,
      [doomed.id],
    );
    assert.deepEqual(logged.map((row) => row.user_id), [anna.id, boris.id].sort((a, b) => a - b));
    assert.equal((await request(server, 'GET', `/chat/unread-count/${pair}`, { token: boris.token })).body.unread_messages, 0);
  });

  it('is safe with two sweepers on one database: each expired message deleted once, counts exact', async () => {
    const anna = await signUp(server);
    const people = await Promise.all([signUp(server), signUp(server), signUp(server)]);
    const chats = await Promise.all(people.map((person) => privateChat(server, anna, person)));
    for (const chatId of chats) {
      await request(server, 'PUT', '/chat/interval', { token: anna.token, body: { chat_id: chatId, interval: 3600 } });
      for (let i = 0; i < 5; i += 1) await sendText(server, anna, chatId, `expiring ${i}`);
    }
    // A second server process: its own connections (PostgreSQL) and its own sweeper, started at the same moment.
    const otherDb = testDatabase === 'postgres' ? await openDatabase({ databaseUrl: server.config.databaseUrl }) : server.db;
    const other = new ExpirySweeper(otherDb, new EventLog(otherDb, new EventBus()), server.app.log, 0);
    try {
      await server.db.query(`UPDATE messages SET expires_at = now() - interval '1 second' WHERE chat_id = ANY($1::bigint[])`, [chats]);
      await Promise.all([server.app.services.expiry.sweep(), other.sweep()]);
      // Whatever one skipped (locked by the other) its next round takes. (The app's own timer may sweep too.)
      await server.app.services.expiry.sweep();
      await other.sweep();
      const left = await server.db.query('SELECT id FROM messages WHERE chat_id = ANY($1::bigint[]) AND deleted_at IS NULL', [chats]);
      assert.deepEqual(left, []);
    } finally {
      if (otherDb !== server.db) await otherDb.close();
    }
    const counts = await server.db.query<{ user_id: number; n: number }>(
      `SELECT user_id, count(*) AS n FROM user_events
        WHERE event_type = 'message-deleted' AND (payload->>'chat_id')::bigint = ANY($1::bigint[])
        GROUP BY user_id ORDER BY user_id`,
      [chats],
    );
    assert.deepEqual(
      counts.map((row) => [row.user_id, row.n]),
      [[anna.id, 15], ...people.map((person) => [person.id, 5])].sort((a, b) => a[0]! - b[0]!),
      'one message-deleted per message per member',
    );
    for (const [index, person] of people.entries()) {
      assert.equal((await request(server, 'GET', `/chat/unread-count/${chats[index]}`, { token: person.token })).body.unread_messages, 0);
    }
  });
});
