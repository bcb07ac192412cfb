import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './helpers/server.js';
import { nextEvent, openFlow, privateChat, randomPhone, request, sendText, signUp } from './helpers/client.js';
import { makeStaff } from './helpers/staff.js';

describe('contacts', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  it('adds, lists, renames and deletes a contact, each person seeing only their own', async () => {
    const anna = await signUp(server, { name: 'Anna' });
    const boris = await signUp(server, { name: 'Boris' });
    const carl = await signUp(server);
    const added = await request(server, 'POST', '/user/contacts/add', {
      token: anna.token,
      body: { user_phone: boris.phone, name: 'Bob', username: '' },
    });
    assert.equal(added.status, 200);
    assert.equal(added.body.added, true);
    assert.equal(added.body.invited, false);
    assert.equal(added.body.contact.id, boris.id);

    const list = await request(server, 'GET', '/user/contacts', { token: anna.token });
    assert.deepEqual(
      list.body.contacts.map((contact: any) => [contact.id, contact.alias_name, contact.name, contact.phone]),
      [[boris.id, 'Bob', 'Boris', boris.phone]],
    );
    assert.deepEqual((await request(server, 'GET', '/user/contacts', { token: carl.token })).body.contacts, []);

    const again = await request(server, 'POST', '/user/contacts/add', { token: anna.token, body: { user_phone: boris.phone, name: 'B' } });
    assert.equal(again.status, 409);
    assert.equal(again.body.message, 'This contact has already been added.');

    const renamed = await request(server, 'PUT', '/user/contacts/edit', { token: anna.token, body: { user_id: boris.id, name: 'Borya' } });
    assert.equal(renamed.body.contact.alias_name, 'Borya');
    // Carl cannot rename or delete a contact that is not his.
    assert.equal((await request(server, 'PUT', '/user/contacts/edit', { token: carl.token, body: { user_id: boris.id, name: 'x' } })).status, 404);
    assert.equal((await request(server, 'DELETE', `/user/contacts/${boris.id}`, { token: carl.token })).status, 404);

    assert.equal((await request(server, 'DELETE', `/user/contacts/${boris.id}`, { token: anna.token })).status, 200);
    assert.deepEqual((await request(server, 'GET', '/user/contacts', { token: anna.token })).body.contacts, []);
  });

  it('refuses oneself, invites unknown phones, and reports an unknown username as neither added nor invited', async () => {
    const anna = await signUp(server);
    const self = await request(server, 'POST', '/user/contacts/add', { token: anna.token, body: { user_phone: anna.phone, name: 'Me' } });
    assert.equal(self.status, 400);
    assert.equal(self.body.message, 'cannot add this user to contacts');

    const newcomerPhone = randomPhone();
    // Added twice at once (two tabs): both answered, one invitation kept, under the name given last.
    const [invited, again] = await Promise.all(
      ['Newcomer?', 'Newcomer'].map((name) => request(server, 'POST', '/user/contacts/add', { token: anna.token, body: { user_phone: newcomerPhone, name } })),
    );
    assert.deepEqual([invited!.status, invited!.body.added, invited!.body.invited], [200, false, true]);
    assert.deepEqual([again!.status, again!.body.invited], [200, true]);
    const kept = await server.db.query('SELECT alias_name FROM contact_invites WHERE owner_id = $1', [anna.id]);
    assert.equal(kept.length, 1);
    await request(server, 'POST', '/user/contacts/add', { token: anna.token, body: { user_phone: newcomerPhone, name: 'Newcomer' } });

    const nobody = await request(server, 'POST', '/user/contacts/add', { token: anna.token, body: { username: '@nobody_here', name: 'N' } });
    assert.deepEqual([nobody.status, nobody.body.added, nobody.body.invited], [200, false, false]);

    const noName = await request(server, 'POST', '/user/contacts/add', { token: anna.token, body: { user_phone: randomPhone(), name: '  ' } });
    assert.equal(noName.status, 400);

    // When the invited person joins, they become Anna's contact under the name she gave.
    const newcomer = await signUp(server, { phone: newcomerPhone });
    const list = await request(server, 'GET', '/user/contacts', { token: anna.token });
    assert.deepEqual(list.body.contacts.map((contact: any) => [contact.id, contact.alias_name]), [[newcomer.id, 'Newcomer']]);

    // A deleted account's number: it never signs in again, so nobody is invited.
    const gone = await signUp(server);
    await server.db.query('UPDATE users SET deleted = true WHERE id = $1', [gone.id]);
    const deleted = await request(server, 'POST', '/user/contacts/add', { token: anna.token, body: { user_phone: gone.phone, name: 'Gone' } });
    assert.deepEqual([deleted.status, deleted.body.added, deleted.body.invited], [200, false, false]);
    assert.equal((await server.db.query('SELECT 1 FROM contact_invites WHERE phone = $1', [gone.phone])).length, 0);
  });

  it('says so when the day\'s invitations are used up (429 invite_limit), rather than "nobody found"', async () => {
    const anna = await signUp(server);
    // 20 invitations within the last day, the oldest 19 h 59 min ago: the next one is possible in 4 h 1 min.
    await server.db.query(
      `INSERT INTO contact_invites (owner_id, phone, alias_name, created_at)
       SELECT $1, '+49151999' || lpad(n::text, 5, '0'), 'Friend', now() - interval '20 hours' + n * interval '1 minute' FROM generate_series(1, 20) AS n`,
      [anna.id],
    );
    const capped = await request(server, 'POST', '/user/contacts/add', { token: anna.token, body: { user_phone: randomPhone(), name: 'One more' } });
    assert.deepEqual([capped.status, capped.body.error], [429, 'invite_limit']);
    const retryAfter = Number(capped.headers.get('retry-after'));
    assert.ok(retryAfter > 4 * 3600 && retryAfter <= 4 * 3600 + 90, String(retryAfter));
  });

  it('finds people by username prefix or exact phone, never oneself', async () => {
    const anna = await signUp(server);
    const zed = await signUp(server);
    await request(server, 'PUT', '/user/edit', { token: zed.token, body: { username: 'zed_the_finder' } });
    const byName = await request(server, 'GET', '/user/find?query=%40zed_the', { token: anna.token });
    assert.deepEqual(byName.body.users.map((user: any) => user.id), [zed.id]);
    assert.equal(byName.body.users[0].phone, undefined, 'no phone for a stranger');
    const byPhone = await request(server, 'GET', `/user/find?query=${encodeURIComponent(zed.phone)}`, { token: anna.token });
    assert.deepEqual(byPhone.body.users.map((user: any) => user.id), [zed.id]);
    const self = await request(server, 'GET', `/user/find?query=${encodeURIComponent(anna.phone)}`, { token: anna.token });
    assert.deepEqual(self.body.users, []);
    assert.equal((await request(server, 'GET', '/user/999999', { token: anna.token })).body.message, 'no such user');
  });
});

describe('private chats', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  it('creates one chat per pair, listed for both with the other person’s profile', async () => {
    const anna = await signUp(server, { name: 'Anna' });
    const boris = await signUp(server, { name: 'Boris' });
    const chatId = await privateChat(server, anna, boris);
    const again = await request(server, 'POST', '/chat/create', { token: boris.token, body: { chat_type: 'private', participants: [anna.id] } });
    assert.equal(again.status, 200);
    assert.equal(again.body.chat.id, chatId, 'the pair’s existing chat');

    const list = await request(server, 'GET', '/chat/list', { token: boris.token });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.chats.map((chat: any) => chat.id), [chatId]);
    assert.deepEqual(list.body.chats[0].participants.sort(), [anna.id, boris.id].sort());
    assert.deepEqual(list.body.users.map((user: any) => [user.id, user.name]), [[anna.id, 'Anna']]);
    assert.deepEqual(list.body.metadata, [{ id: chatId, chat_id: chatId, interval: 0 }]);
    assert.equal(typeof list.body.seq, 'number');

    const self = await request(server, 'POST', '/chat/create', { token: anna.token, body: { chat_type: 'private', participants: [anna.id] } });
    assert.equal(self.status, 400);
    const ghost = await request(server, 'POST', '/chat/create', { token: anna.token, body: { chat_type: 'private', participants: [987654] } });
    assert.equal(ghost.status, 404);
  });

  it('pages history newest first, counts unread and clears it on read', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    for (let i = 1; i <= 7; i += 1) assert.equal((await sendText(server, anna, chatId, `message ${i}`)).type, 'ack');

    const unread = await request(server, 'GET', `/chat/unread-count/${chatId}`, { token: boris.token });
    assert.equal(unread.body.unread_messages, 7);
    assert.equal((await request(server, 'GET', `/chat/unread-count/${chatId}`, { token: anna.token })).body.unread_messages, 0);

    const page1 = await request(server, 'GET', `/chat/history?chat_id=${chatId}&page_size=3&page_num=1`, { token: boris.token });
    assert.deepEqual(page1.body.messages.map((message: any) => message.text), ['message 5', 'message 6', 'message 7']);
    assert.equal(page1.body.has_more, true);
    const page3 = await request(server, 'GET', `/chat/history?chat_id=${chatId}&page_size=3&page_num=3`, { token: boris.token });
    assert.deepEqual(page3.body.messages.map((message: any) => message.text), ['message 1']);
    assert.equal(page3.body.has_more, false);
    const before = await request(server, 'GET', `/chat/history?chat_id=${chatId}&page_size=3&before_id=${page1.body.messages[0].id}`, {
      token: boris.token,
    });
    assert.deepEqual(before.body.messages.map((message: any) => message.text), ['message 2', 'message 3', 'message 4']);

    const list = await request(server, 'GET', '/chat/list', { token: boris.token });
    assert.equal(list.body.chats[0].last_message.text, 'message 7');
    assert.equal(list.body.chats[0].unread_messages, 7);

    assert.equal((await request(server, 'PUT', `/chat/read?chat_id=${chatId}`, { token: boris.token })).status, 200);
    assert.equal((await request(server, 'GET', `/chat/unread-count/${chatId}`, { token: boris.token })).body.unread_messages, 0);

    const tooBig = await request(server, 'GET', `/chat/history?chat_id=${chatId}&page_size=1000`, { token: boris.token });
    assert.equal(tooBig.status, 400);
    const notANumber = await request(server, 'GET', `/chat/history?chat_id=abc`, { token: boris.token });
    assert.equal(notANumber.status, 400);
  });

  it('marks read up to the message the reader saw, leaving later ones unread, and tells their other tabs the count', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    const sent = [];
    for (let i = 1; i <= 5; i += 1) sent.push(await sendText(server, anna, chatId, `m${i}`));
    const flow = await openFlow(server, boris);
    try {
      const read = await request(server, 'PUT', `/chat/read?chat_id=${chatId}&message_id=${sent[2].message.id}`, { token: boris.token });
      assert.equal(read.status, 200);
      assert.deepEqual(read.body, { chat_id: chatId, unread_messages: 2 });
      const event = await nextEvent(flow, (candidate) => candidate.event_type === 'chat-read');
      assert.deepEqual(event.additional_info, { chat_id: chatId, unread_messages: 2, unread_mentions: 0 });
      assert.equal((await request(server, 'GET', `/chat/unread-count/${chatId}`, { token: boris.token })).body.unread_messages, 2);
      // An older mark never moves the read mark back.
      const older = await request(server, 'PUT', `/chat/read?chat_id=${chatId}&message_id=${sent[0].message.id}`, { token: boris.token });
      assert.equal(older.body.unread_messages, 2);
      // A mark past the newest message reads everything there is, nothing more.
      await request(server, 'PUT', `/chat/read?chat_id=${chatId}&message_id=${sent[4].message.id + 1000}`, { token: boris.token });
      assert.equal((await request(server, 'GET', `/chat/unread-count/${chatId}`, { token: boris.token })).body.unread_messages, 0);
      await sendText(server, anna, chatId, 'later');
      assert.equal((await request(server, 'GET', `/chat/unread-count/${chatId}`, { token: boris.token })).body.unread_messages, 1);
      const eve = await signUp(server);
      assert.equal((await request(server, 'PUT', `/chat/read?chat_id=${chatId}&message_id=${sent[0].message.id}`, { token: eve.token })).status, 404);
    } finally {
      flow.close();
    }
  });

  it('refuses another person’s chat on every route, as if it did not exist', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const eve = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    await sendText(server, anna, chatId, 'secret');
    const attempts = [
      request(server, 'GET', `/chat/${chatId}`, { token: eve.token }),
      request(server, 'GET', `/chat/history?chat_id=${chatId}`, { token: eve.token }),
      request(server, 'PUT', `/chat/read?chat_id=${chatId}`, { token: eve.token }),
      request(server, 'GET', `/chat/unread-count/${chatId}`, { token: eve.token }),
    ];
    for (const response of await Promise.all(attempts)) {
      assert.equal(response.status, 404);
      assert.equal(response.body.message, "chat isn't available anymore");
      assert.ok(!JSON.stringify(response.body).includes('secret'));
    }
    const sent = await sendText(server, eve, chatId, 'let me in');
    assert.equal(sent.type, 'error');
    assert.equal(sent.status, 404);
    const history = await request(server, 'GET', `/chat/history?chat_id=${chatId}`, { token: anna.token });
    assert.deepEqual(history.body.messages.map((message: any) => message.text), ['secret'], 'nothing was written');
    assert.deepEqual((await request(server, 'GET', '/chat/list', { token: eve.token })).body.chats, []);
    // Without a token nothing is reachable at all.
    assert.equal((await request(server, 'GET', `/chat/${chatId}`)).status, 401);
  });

  it('lists an empty call history as an empty list', async () => {
    const anna = await signUp(server);
    const history = await request(server, 'GET', '/chat/call/history', { token: anna.token });
    assert.equal(history.status, 200);
    assert.deepEqual(history.body, { calls: [] });
  });

  it('shows statistics to admins only, computed from the data', async () => {
    const user = await signUp(server);
    assert.equal((await request(server, 'GET', '/stats/total?days=7', { token: user.token })).status, 403);
    await makeStaff(server, user, 2);
    const manager = await signUp(server);
    await server.db.query('UPDATE users SET role = 1 WHERE id = $1', [manager.id]);
    const code = (await request(server, 'GET', '/user', { token: manager.token })).body.user.invite_link.split('/').pop();
    await signUp(server, { inviteCode: code });
    await signUp(server, { inviteCode: code });
    const stats = await request(server, 'GET', '/stats/total?days=7', { token: user.token });
    assert.equal(stats.status, 200);
    assert.equal(stats.body.managers, 1);
    assert.equal(stats.body.users_per_manager, 2);
    assert.equal(stats.body.calls, 0);
    assert.equal(stats.body.secret_chats, 0);
    const [{ count }] = (await server.db.query<{ count: number }>(
      `SELECT count(*) AS count FROM users WHERE created_at > now() - interval '7 days'`,
    )) as [{ count: number }];
    assert.equal(stats.body.new_users, count);
  });
});

describe('search in a chat', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  it('finds messages by text, case-insensitively, newest first, for members only', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const eve = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    const ids: number[] = [];
    for (const text of ['Lunch at noon?', 'no', 'LUNCH is great', '100% sure', 'under_score']) ids.push((await sendText(server, anna, chatId, text)).message.id);
    const hits = await request(server, 'GET', `/chat/search?chat_id=${chatId}&query=lunch`, { token: boris.token });
    assert.deepEqual(hits.body.message_ids, [ids[2], ids[0]]);
    // LIKE wildcards in the query are taken literally.
    assert.deepEqual((await request(server, 'GET', `/chat/search?chat_id=${chatId}&query=${encodeURIComponent('%')}`, { token: boris.token })).body.message_ids, [ids[3]]);
    assert.deepEqual((await request(server, 'GET', `/chat/search?chat_id=${chatId}&query=_`, { token: boris.token })).body.message_ids, [ids[4]]);
    assert.deepEqual((await request(server, 'GET', `/chat/search?chat_id=${chatId}&query=%20`, { token: boris.token })).body.message_ids, []);
    const refused = await request(server, 'GET', `/chat/search?chat_id=${chatId}&query=lunch`, { token: eve.token });
    assert.equal(refused.status, 404);
  });
});
