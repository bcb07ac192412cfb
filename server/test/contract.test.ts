// The wire contract (packages/protocol) is what the server serves: each of its routes is registered with its
// schemas, and what the server answers is what the schemas say (checked with TypeBox, as the client checks it).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Value from 'typebox/value';
import { Chat, Contact, Employee, FileTreeEntry, Me, Message, PublicUser, contractRoutes, successStatuses, type ContractRoute } from '@messenger/protocol';
import { startServer, type TestServer } from './helpers/server.js';
import { codeFor, privateChat, randomPhone, request, sendFrame, sendText, signUp, upload, waitFor, type HttpResult } from './helpers/client.js';
import { quickStaff } from './helpers/staff.js';

/** Asserts that `body` is what `route` answers by the contract, naming the first fields that are not. */
function check(route: ContractRoute, body: unknown): void {
  assert.ok(Value.Check(route.response, body), `${route.method} ${route.url}: ${JSON.stringify(Value.Errors(route.response, body).slice(0, 3))}`);
}

describe('the wire contract', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  it('every route of the contract is served with its own schemas, its answer serialized by its response schema', () => {
    const routes = Object.values(contractRoutes).flatMap((table) => Object.values(table) as ContractRoute[]);
    assert.ok(routes.length > 0);
    for (const route of routes) {
      const served = server.app.routeList.find((entry) => entry.method === route.method && entry.url === `/api${route.url}`);
      assert.ok(served, `${route.method} ${route.url} is served`);
      for (const status of successStatuses(route)) {
        assert.equal(served.schema?.response?.[status], route.response, `${route.method} ${route.url} answers ${status} by the contract's schema`);
      }
      for (const part of ['body', 'params', 'querystring'] as const) {
        assert.equal(served.schema?.[part], route[part], `${route.method} ${route.url} takes its ${part} by the contract's schema`);
      }
    }
  });

  it('the contacts routes answer what the contract names, field for field', async () => {
    const anna = await signUp(server, { name: 'Anna' });
    const bob = await signUp(server, { name: 'Bob' });
    const routes = contractRoutes.contacts;
    const added = await request(server, 'POST', routes.add.url, { token: anna.token, body: { user_phone: bob.phone, name: 'Bobby' } });
    assert.equal(added.status, 200);
    check(routes.add, added.body);
    assert.ok(added.body.contact);
    assert.deepEqual(Object.keys(added.body.contact).sort(), Object.keys(Contact.properties).sort());

    const list = await request(server, 'GET', routes.list.url, { token: anna.token });
    check(routes.list, list.body);
    assert.equal(list.body.contacts.length, 1);

    const renamed = await request(server, 'PUT', routes.edit.url, { token: anna.token, body: { user_id: bob.id, name: 'Robert' } });
    check(routes.edit, renamed.body);
    assert.equal(renamed.body.contact.alias_name, 'Robert');

    const removed = await request(server, 'DELETE', `/user/contacts/${bob.id}`, { token: anna.token });
    check(routes.remove, removed.body);
  });

  it('the staff routes answer what the contract names: employees, credentials handed over, a role changed', async () => {
    const admin = await quickStaff(server, 3, 'Ada');
    const routes = contractRoutes.staff;

    const created = await request(server, 'POST', routes.createManager.url, { token: admin.token, body: { phone: '+4915112345678', name: 'Manny' } });
    assert.equal(created.status, 201);
    check(routes.createManager, created.body);
    assert.deepEqual(Object.keys(created.body.user).sort(), Object.keys(Employee.properties).sort());

    const reset = await request(server, 'PUT', routes.edit.url, { token: admin.token, body: { user_id: created.body.user.id, password: 'a new password 1' } });
    check(routes.edit, reset.body);
    assert.equal(reset.body.credentials.extra_password, null, 'a password not changed is null');

    check(routes.list, (await request(server, 'GET', `${routes.list.url}?managers=true`, { token: admin.token })).body);
    check(routes.setRole, (await request(server, 'PUT', routes.setRole.url, { token: admin.token, body: { user_id: created.body.user.id, role_id: 0 } })).body);
    check(routes.setMuted, (await request(server, 'PUT', routes.setMuted.url, { token: admin.token, body: { user_id: created.body.user.id, isMuted: true } })).body);
    const own = await request(server, 'POST', routes.ownPasswords.url, {
      token: admin.token,
      body: { password: 'another one 12', extra_password: 'and another 34', current_password: admin.password },
    });
    check(routes.ownPasswords, own.body);
    check(routes.remove, (await request(server, 'DELETE', `/user/${created.body.user.id}`, { token: admin.token })).body);
  });

  it('the file routes answer what the contract names: an upload, its tokens, a folder of the storage, a deletion', async () => {
    const admin = await quickStaff(server, 2, 'Ada');
    const routes = contractRoutes.files;

    const uploaded = await upload(server, admin);
    assert.equal(uploaded.status, 201);
    check(routes.upload, uploaded.body);
    const path: string = uploaded.body.file.path;
    const tokens = await request(server, 'POST', routes.tokens.url, { token: admin.token, body: { paths: [path] } });
    check(routes.tokens, tokens.body);
    assert.equal(typeof tokens.body.tokens[path], 'string', 'the token of the path asked for');

    const folder = path.split('/').slice(0, -1).join('/');
    const tree = await request(server, 'GET', `${routes.tree.url}?path=${encodeURIComponent(folder)}`, { token: admin.token });
    check(routes.tree, tree.body);
    assert.equal(tree.body.truncated, false);
    const entry = tree.body.entries.find((listed: { path: string }) => listed.path === path);
    assert.deepEqual(Object.keys(entry).sort(), Object.keys(FileTreeEntry.properties).sort());

    check(routes.deleteAll, (await request(server, 'DELETE', routes.deleteAll.url, { token: admin.token })).body);
  });

  it('the statistics routes answer what the contract names', async () => {
    const admin = await quickStaff(server, 2, 'Ada');
    await quickStaff(server, 1, 'Manny');
    for (const route of Object.values(contractRoutes.stats)) {
      const answer = await request(server, 'GET', `${route.url}?days=7`, { token: admin.token });
      assert.equal(answer.status, 200);
      check(route, answer.body);
    }
  });

  it('the users routes answer what the contract names: one’s own profile, another’s, presence, search, a block', async () => {
    const routes = contractRoutes.users;
    const anna = await signUp(server, { name: 'Anna' });
    const bob = await signUp(server, { name: 'Bob' });
    await privateChat(server, anna, bob);
    const admin = await quickStaff(server, 2, 'Ada');

    const me = await request(server, 'GET', routes.me.url, { token: anna.token });
    check(routes.me, me.body);
    assert.deepEqual(Object.keys(me.body.user).sort(), Object.keys(Me.properties).sort());
    check(routes.edit, (await request(server, 'PUT', routes.edit.url, { token: anna.token, body: { username: 'anna_contract' } })).body);
    const profile = await request(server, 'GET', `/user/${bob.id}`, { token: anna.token });
    check(routes.profile, profile.body);
    assert.ok(Object.keys(profile.body.user).every((key) => key in PublicUser.properties));
    check(routes.presence, (await request(server, 'GET', `/user/${bob.id}/presence`, { token: anna.token })).body);
    const found = await request(server, 'GET', `${routes.find.url}?query=anna_contract`, { token: bob.token });
    check(routes.find, found.body);
    assert.deepEqual(
      found.body.users.map((user: { id: number }) => user.id),
      [anna.id],
    );
    const blocked = await request(server, 'PUT', routes.block.url, { token: admin.token, body: { user_id: bob.id, blocked: true } });
    check(routes.block, blocked.body);
    assert.equal(blocked.body.user.blocked, true, 'an admin sees whether someone is blocked');
  });

  it('the chats routes answer what the contract names: a private chat and a group, their history, read state, a link', async () => {
    const routes = contractRoutes.chats;
    const anna = await signUp(server, { name: 'Anna' });
    const bob = await signUp(server, { name: 'Bob' });
    const vika = await signUp(server, { name: 'Vika' });
    const admin = await quickStaff(server, 2, 'Ada');
    await request(server, 'POST', '/user/contacts/add', { token: anna.token, body: { user_phone: bob.phone, name: 'Bob' } });
    await request(server, 'POST', '/user/contacts/add', { token: anna.token, body: { user_phone: vika.phone, name: 'Vika' } });

    const privateBody = { chat_type: 'private', participants: [bob.id] };
    const created = await request(server, 'POST', routes.create.url, { token: anna.token, body: privateBody });
    assert.equal(created.status, 201);
    check(routes.create, created.body);
    assert.deepEqual(Object.keys(created.body.chat).sort(), Object.keys(Chat.properties).sort());
    const again = await request(server, 'POST', routes.create.url, { token: anna.token, body: privateBody });
    assert.equal(again.status, 200, 'the private chat the two already have');
    check(routes.create, again.body);
    const chatId: number = created.body.chat.id;
    const first = await sendText(server, anna, chatId, 'hello there');
    const reply = await sendFrame(server, bob, { chat_id: chatId, text: 'hi back', reply_to_id: first.message.id });
    assert.equal(reply.message.reply_to.id, first.message.id);
    // A call Bob declines leaves a call message whose meta says how it went.
    assert.equal((await request(server, 'POST', '/meet/call', { token: anna.token, body: { chat_id: chatId } })).status, 200);
    assert.equal((await request(server, 'POST', '/meet/reject', { token: bob.token, body: { chat_id: chatId } })).status, 200);

    const historyUrl = `${routes.history.url}?chat_id=${chatId}`;
    let history!: HttpResult;
    await waitFor(async () => {
      history = await request(server, 'GET', historyUrl, { token: bob.token });
      return history.body.messages.at(-1)?.meta?.call_status === 'rejected';
    }, 'the declined call in the history');
    check(routes.history, history.body);
    assert.deepEqual(
      history.body.messages.map((message: { type: string; text: string }) => [message.type, message.text]),
      [
        ['text', 'hello there'],
        ['text', 'hi back'],
        ['call', ''],
      ],
    );
    assert.deepEqual(history.body.messages[2].meta, { call_status: 'rejected', duration_seconds: null });
    assert.equal(history.body.messages[1].reply_to.text, 'hello there');
    assert.deepEqual(Object.keys(history.body.messages[0]).sort(), Object.keys(Message.properties).sort());
    const found = await request(server, 'GET', `${routes.search.url}?chat_id=${chatId}&query=hello`, { token: bob.token });
    check(routes.search, found.body);
    assert.deepEqual(found.body.message_ids, [first.message.id]);
    check(routes.unreadCount, (await request(server, 'GET', `/chat/unread-count/${chatId}`, { token: bob.token })).body);
    const read = await request(server, 'PUT', `${routes.read.url}?chat_id=${chatId}`, { token: bob.token });
    check(routes.read, read.body);
    assert.equal(read.body.unread_messages, 0);
    check(routes.notifications, (await request(server, 'PUT', routes.notifications.url, { token: bob.token, body: { chat_id: chatId, notifications: false } })).body);
    check(routes.interval, (await request(server, 'PUT', routes.interval.url, { token: bob.token, body: { chat_id: chatId, interval: 86400 } })).body);

    const group = await request(server, 'POST', routes.create.url, {
      token: anna.token,
      body: { chat_type: 'group', participants: [bob.id], name: 'Contract club' },
    });
    assert.equal(group.status, 201);
    check(routes.create, group.body);
    const groupId: number = group.body.chat.id;
    assert.match(group.body.chat.invite_code, /^C-/, 'the owner sees the invite code');
    check(routes.edit, (await request(server, 'PUT', routes.edit.url, { token: anna.token, body: { chat_id: groupId, name: 'Contract society' } })).body);
    const managed = await request(server, 'PUT', routes.manageParticipants.url, {
      token: anna.token,
      body: { chat_id: groupId, actions: [{ add: false, participants: [bob.id] }] },
    });
    check(routes.manageParticipants, managed.body);
    // Removed, Bob is let back in by the owner only; leaving of his own accord, he may join by the code.
    await request(server, 'PUT', routes.manageParticipants.url, { token: anna.token, body: { chat_id: groupId, actions: [{ add: true, participants: [bob.id] }] } });
    assert.equal((await request(server, 'DELETE', `/chat/${groupId}`, { token: bob.token })).status, 200);
    const joined = await request(server, 'POST', routes.join.url, { token: bob.token, body: { code: group.body.chat.invite_code } });
    check(routes.join, joined.body);
    assert.equal(joined.body.chat.invite_code, null, 'a member who is not the owner does not');
    check(routes.get, (await request(server, 'GET', `/chat/${groupId}`, { token: bob.token })).body);
    const named = await request(server, 'GET', `${routes.find.url}?query=Contract`, { token: bob.token });
    check(routes.find, named.body);
    assert.deepEqual(
      named.body.chats.map((chat: { id: number }) => chat.id),
      [groupId],
    );

    const list = await request(server, 'GET', routes.list.url, { token: bob.token });
    check(routes.list, list.body);
    assert.deepEqual(list.body.chats.map((chat: { id: number }) => chat.id).sort(), [chatId, groupId].sort());
    assert.ok(Object.keys(list.body.users[0]).every((key) => key in PublicUser.properties));
    // Secret groups, as an admin who is not in them sees them.
    const manager = await quickStaff(server, 1, 'Manny');
    const secret = await request(server, 'POST', routes.create.url, {
      token: manager.token,
      body: { chat_type: 'group', participants: [], name: 'Contract secrets', is_secret: true },
    });
    check(routes.create, secret.body);
    const allSecret = await request(server, 'GET', routes.listAll.url, { token: admin.token });
    check(routes.listAll, allSecret.body);
    assert.ok(allSecret.body.chats.some((chat: { id: number }) => chat.id === secret.body.chat.id));
    const observed = await request(server, 'GET', `/chat/${secret.body.chat.id}`, { token: admin.token });
    check(routes.get, observed.body);
    assert.equal(observed.body.chat.is_secret, true);
    check(routes.remove, (await request(server, 'DELETE', `/chat/${groupId}`, { token: anna.token })).body);

    // Someone's invite link: a signed-in person gets the private chat, a visitor a guest account as well.
    const annaMe = await request(server, 'GET', '/user', { token: anna.token });
    const code = String(annaMe.body.user.invite_link).split('/').at(-1)!;
    const followed = await request(server, 'POST', `${routes.link.url}?code=${code}`, { token: vika.token });
    check(routes.link, followed.body);
    assert.equal(followed.body.jwt_info, undefined);
    const guest = await request(server, 'POST', `${routes.link.url}?code=${code}`, {});
    check(routes.link, guest.body);
    assert.equal(guest.body.is_new_user, true);
    assert.equal(typeof guest.body.jwt_info.access_token, 'string');
  });

  it('the messages routes answer what the contract names: an edit, a reaction given and taken back, readers, a deletion', async () => {
    const routes = contractRoutes.messages;
    const anna = await signUp(server, { name: 'Anna' });
    const bob = await signUp(server, { name: 'Bob' });
    const chatId = await privateChat(server, anna, bob);
    const sent = await sendText(server, anna, chatId, 'first words');
    const id: number = sent.message.id;

    const edited = await request(server, 'PUT', `/chat/message/${id}`, { token: anna.token, body: { text: 'better words' } });
    check(routes.edit, edited.body);
    assert.equal(edited.body.message.text, 'better words');
    assert.notEqual(edited.body.message.edited_at, null);
    const reacted = await request(server, 'PUT', `/chat/message/${id}/reaction`, { token: bob.token, body: { emoji: '👍' } });
    check(routes.react, reacted.body);
    assert.deepEqual(reacted.body.reactions, [{ emoji: '👍', user_ids: [bob.id] }]);
    const taken = await request(server, 'DELETE', `/chat/message/${id}/reaction`, { token: bob.token });
    check(routes.unreact, taken.body);
    assert.deepEqual(taken.body.reactions, []);
    await request(server, 'PUT', `/chat/read?chat_id=${chatId}`, { token: bob.token });
    const readers = await request(server, 'GET', `/chat/message/${id}/readers`, { token: anna.token });
    check(routes.readers, readers.body);
    assert.deepEqual(
      readers.body.readers.map((reader: { id: number }) => reader.id),
      [bob.id],
    );
    check(routes.remove, (await request(server, 'DELETE', `/chat/message/${id}`, { token: anna.token })).body);
  });

  it('the calls routes answer what the contract names: a call started, its ticket and room, declined, the history, recording', async () => {
    const routes = contractRoutes.calls;
    const anna = await signUp(server, { name: 'Anna' });
    const bob = await signUp(server, { name: 'Bob' });
    const admin = await quickStaff(server, 2, 'Ada');
    const chatId = await privateChat(server, anna, bob);

    const started = await request(server, 'POST', routes.start.url, { token: anna.token, body: { chat_id: chatId } });
    check(routes.start, started.body);
    assert.equal(started.body.message.type, 'call', 'the caller gets the call’s own message');
    const running = await request(server, 'GET', `${routes.running.url}?chat_id=${chatId}`, { token: bob.token });
    check(routes.running, running.body);
    assert.equal(running.body.call_id, started.body.call.id);
    const ticket = await request(server, 'GET', `${routes.ticket.url}?chat_id=${chatId}`, { token: bob.token });
    check(routes.ticket, ticket.body);
    const room = await request(server, 'GET', `${routes.participants.url}?chat_id=${chatId}`, { token: bob.token });
    check(routes.participants, room.body);
    assert.deepEqual(room.body.participants, {}, 'nobody has joined the room yet');
    check(routes.reject, (await request(server, 'POST', routes.reject.url, { token: bob.token, body: { chat_id: chatId } })).body);

    const history = await request(server, 'GET', routes.history.url, { token: anna.token });
    check(routes.history, history.body);
    assert.deepEqual(
      history.body.calls.map((call: { id: number; status: string; direction: string }) => [call.id, call.status, call.direction]),
      [[started.body.call.id, 'rejected', 'outgoing']],
    );

    check(routes.setRecording, (await request(server, 'PUT', routes.setRecording.url, { token: admin.token, body: { chat_id: chatId, enabled: true } })).body);
    const recording = await request(server, 'GET', `${routes.recording.url}?chat_id=${chatId}`, { token: admin.token });
    check(routes.recording, recording.body);
    assert.equal(recording.body.recording, true);
  });

  it('the sign-in and push routes answer what the contract names: a code, a sign-in, staff passwords, a refresh, the push key', async () => {
    const routes = contractRoutes.auth;
    const phone = randomPhone();
    const sent = await request(server, 'POST', routes.sendCode.url, { body: { phone } });
    check(routes.sendCode, sent.body);
    assert.equal(sent.body.password_set, false);
    const signedIn = await request(server, 'POST', routes.signIn.url, { body: { phone, code: await codeFor(server, phone) } });
    check(routes.signIn, signedIn.body);
    assert.equal(signedIn.body.is_new_user, true);
    const refreshed = await request(server, 'POST', routes.refresh.url, { token: signedIn.body.jwt_info.refresh_token });
    check(routes.refresh, refreshed.body);

    const manager = await quickStaff(server, 1, 'Manny');
    const staffCode = await request(server, 'POST', routes.sendCode.url, { body: { phone: manager.phone } });
    check(routes.sendCode, staffCode.body);
    assert.deepEqual(staffCode.body, { is_manager: true, password_set: true }, 'no code for staff with passwords');
    const first = await request(server, 'POST', routes.signInManager.url, { body: { phone: manager.phone, password: manager.password } });
    check(routes.signInManager, first.body);
    const second = await request(server, 'POST', routes.signInManagerExtra.url, {
      body: { phone: manager.phone, password: manager.extra_password, ticket: first.body.ticket },
    });
    check(routes.signInManagerExtra, second.body);

    check(contractRoutes.push.key, (await request(server, 'GET', contractRoutes.push.key.url, { token: manager.token })).body);
  });
});
