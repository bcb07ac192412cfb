// Findings of issue 9's attacker's walk, each pinned: phones reached through invite links, sessions that outlived a
// block, roles taken from tokens, guests walking the directory, 500s on huge ids and NUL bytes, an open dev outbox.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './helpers/server.js';
import { type Person, SocketProbe, flowUrl, privateChat, randomPhone, request, signUp, waitFor } from './helpers/client.js';
import { quickStaff, type StaffPerson } from './helpers/staff.js';
import { loadConfig } from '../src/config.js';

const inviteCodeOf = async (server: TestServer, person: Person): Promise<string> =>
  (await request(server, 'GET', '/user', { token: person.token })).body.user.invite_link.split('/').pop();

describe('phones are shown only to those who typed them in', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  it('an anonymous visitor following an invite link does not learn the inviter’s phone', async () => {
    const inviter = await signUp(server, { name: 'Inviter' });
    const followed = await request(server, 'POST', `/user/link?code=${await inviteCodeOf(server, inviter)}`);
    assert.equal(followed.status, 200);
    const guest = followed.body.jwt_info.access_token;
    const profile = await request(server, 'GET', `/user/${inviter.id}`, { token: guest });
    assert.equal(profile.status, 200);
    assert.equal(profile.body.user.phone, undefined);
    const list = await request(server, 'GET', '/chat/list', { token: guest });
    const shown = list.body.users.find((user: { id: number }) => user.id === inviter.id);
    assert.ok(shown, 'the inviter is in the guest’s chat list');
    assert.equal(shown.phone, undefined);
    assert.doesNotMatch(JSON.stringify(list.body), new RegExp(inviter.phone.replace('+', '\\+')));
  });

  it('a signed-in person following the link gets the inviter as a contact without the phone', async () => {
    const inviter = await signUp(server, { name: 'Inviter' });
    const follower = await signUp(server, { name: 'Follower' });
    const followed = await request(server, 'POST', `/user/link?code=${await inviteCodeOf(server, inviter)}`, { token: follower.token });
    assert.equal(followed.status, 200);
    const contacts = await request(server, 'GET', '/user/contacts', { token: follower.token });
    const contact = contacts.body.contacts.find((c: { id: number }) => c.id === inviter.id);
    assert.ok(contact);
    assert.equal(contact.phone, null);
    assert.equal((await request(server, 'GET', `/user/${inviter.id}`, { token: follower.token })).body.user.phone, undefined);
    const list = await request(server, 'GET', '/chat/list', { token: follower.token });
    assert.doesNotMatch(JSON.stringify(list.body), new RegExp(inviter.phone.replace('+', '\\+')));

    // Typing the number in afterwards proves it is known: from then on it shows.
    const again = await request(server, 'POST', '/user/contacts/add', { token: follower.token, body: { user_phone: inviter.phone, name: 'Inv' } });
    assert.equal(again.status, 409);
    assert.equal((await request(server, 'GET', `/user/${inviter.id}`, { token: follower.token })).body.user.phone, inviter.phone);
  });

  it('a contact added by username does not show the phone; one added by number does', async () => {
    const owner = await signUp(server, { name: 'Owner' });
    const byName = await signUp(server, { name: 'ByName' });
    const username = `user${byName.id}x`;
    assert.equal((await request(server, 'PUT', '/user/edit', { token: byName.token, body: { username } })).status, 200);
    const added = await request(server, 'POST', '/user/contacts/add', { token: owner.token, body: { username, name: 'N' } });
    assert.equal(added.status, 200);
    assert.equal(added.body.contact.phone, null);
    assert.equal((await request(server, 'GET', `/user/${byName.id}`, { token: owner.token })).body.user.phone, undefined);

    const byNumber = await signUp(server, { name: 'ByNumber' });
    const typed = await request(server, 'POST', '/user/contacts/add', { token: owner.token, body: { user_phone: byNumber.phone, name: 'P' } });
    assert.equal(typed.body.contact.phone, byNumber.phone);
    assert.equal((await request(server, 'GET', `/user/${byNumber.id}`, { token: owner.token })).body.user.phone, byNumber.phone);
  });
});

describe('ending sessions at once', () => {
  let server: TestServer;
  let admin: StaffPerson;
  before(async () => {
    server = await startServer();
    admin = await quickStaff(server, 2, 'Admin');
  });
  after(() => server.close());

  async function refusedEverywhere(person: Person, chatId: number): Promise<void> {
    for (const [method, path, body] of [
      ['GET', '/chat/list'],
      ['GET', `/chat/history?chat_id=${chatId}`],
      ['GET', `/chat/${chatId}`],
      ['GET', '/user/find?query=someone'],
      ['PUT', '/user/edit', { name: 'Still here' }],
    ] as const) {
      const answer = await request(server, method, path, { token: person.token, ...(body ? { body } : {}) });
      assert.equal(answer.status, 401, `${method} ${path} → ${answer.status}`);
    }
    await assert.rejects(SocketProbe.open(flowUrl(server, person.token)), /upgrade refused: 401/);
  }

  it('a block refuses the person’s token, closes their sockets and their refresh says “you are banned”', async () => {
    const person = await signUp(server, { name: 'Soon blocked' });
    const friend = await signUp(server, { name: 'Friend' });
    const chatId = await privateChat(server, friend, person);
    const flow = await SocketProbe.open(flowUrl(server, person.token));
    await flow.until((frames) => frames.some((frame) => frame.event_type === 'ready'));

    const blocked = await request(server, 'PUT', '/user/block', { token: admin.token, body: { user_id: person.id, blocked: true } });
    assert.equal(blocked.status, 200);
    assert.equal(await flow.closed(), 4003);
    await refusedEverywhere(person, chatId);
    const refreshed = await request(server, 'POST', '/auth/refresh', { token: person.refresh });
    assert.deepEqual([refreshed.status, refreshed.body.message], [403, 'you are banned']);

    // Unblocked, the old tokens stay dead: they sign in again.
    await request(server, 'PUT', '/user/block', { token: admin.token, body: { user_id: person.id, blocked: false } });
    assert.equal((await request(server, 'GET', '/chat/list', { token: person.token })).status, 401);
    assert.equal((await request(server, 'POST', '/auth/refresh', { token: person.refresh })).status, 401);
  });

  it('deleting a person refuses their token and closes their sockets', async () => {
    const person = await signUp(server, { name: 'Soon deleted' });
    const friend = await signUp(server, { name: 'Friend' });
    const chatId = await privateChat(server, friend, person);
    const flow = await SocketProbe.open(flowUrl(server, person.token));
    await flow.until((frames) => frames.some((frame) => frame.event_type === 'ready'));
    assert.equal((await request(server, 'DELETE', `/user/${person.id}`, { token: admin.token })).status, 200);
    assert.equal(await flow.closed(), 4003);
    await refusedEverywhere(person, chatId);
  });

  it('requests of one moment are checked against the accounts with one read, each getting its own answer', async () => {
    const people = [await signUp(server), await signUp(server), await signUp(server)];
    const blocked = await signUp(server, { name: 'Blocked among them' });
    assert.equal((await request(server, 'PUT', '/user/block', { token: admin.token, body: { user_id: blocked.id, blocked: true } })).status, 200);

    // Counts the account reads while a crowd asks at once (the database object is the one AccountStates reads
    // through), and holds the first read until every request of the crowd has asked: the rest wait for the next.
    const crowd = [...people, ...people, blocked, ...people, blocked];
    const { db, accountStates } = server.app.services;
    const query = db.query.bind(db);
    const read = accountStates.read.bind(accountStates);
    let asked = 0;
    let reads = 0;
    accountStates.read = (userId: number) => {
      asked += 1;
      return read(userId);
    };
    db.query = (async (sql: string, params?: unknown[]) => {
      if (sql.includes('FROM users WHERE id = ANY')) {
        reads += 1;
        if (reads === 1) await waitFor(() => asked === crowd.length, 'the whole crowd asking');
      }
      return query(sql, params);
    }) as typeof db.query;
    try {
      const answers = await Promise.all(crowd.map((person) => request(server, 'GET', '/chat/list', { token: person.token })));
      assert.deepEqual(
        answers.map((answer) => answer.status),
        crowd.map((person) => (person === blocked ? 401 : 200)),
      );
      // The first read may take a few of the crowd with it (those of its own turn); the rest go together.
      assert.ok(reads >= 1 && reads <= 2, `${crowd.length} requests, ${reads} account reads`);
    } finally {
      db.query = query;
      accountStates.read = read;
    }
  });

  it('a demoted admin stops seeing what admins see on their very next request', async () => {
    const demoted = await quickStaff(server, 2, 'Demoted');
    const someone = await signUp(server, { name: 'Someone' });
    const username = `someone${someone.id}`;
    await request(server, 'PUT', '/user/edit', { token: someone.token, body: { username } });
    const asAdmin = await request(server, 'GET', `/user/find?query=${username}`, { token: demoted.token });
    assert.equal(asAdmin.body.users[0].phone, someone.phone, 'an admin sees the phone');

    // The role changes behind the token's back (as a migration or another admin would): the token's claim is stale.
    await server.db.query('UPDATE users SET role = 0 WHERE id = $1', [demoted.id]);
    const after = await request(server, 'GET', `/user/find?query=${username}`, { token: demoted.token });
    assert.equal(after.status, 200);
    assert.equal(after.body.users[0].phone, undefined);
    assert.equal(after.body.users[0].blocked, undefined);
    assert.equal((await request(server, 'GET', '/user/all', { token: demoted.token })).status, 403);
  });

  it('a role change through the API ends the person’s sessions', async () => {
    const top = await quickStaff(server, 3, 'Top');
    const manager = await quickStaff(server, 1, 'Manager');
    const flow = await SocketProbe.open(flowUrl(server, manager.token));
    await flow.until((frames) => frames.some((frame) => frame.event_type === 'ready'));
    const changed = await request(server, 'PUT', '/user/role', { token: top.token, body: { user_id: manager.id, role_id: 0 } });
    assert.equal(changed.status, 200);
    assert.equal(await flow.closed(), 4003);
    assert.equal((await request(server, 'GET', '/chat/list', { token: manager.token })).status, 401);
    assert.equal((await request(server, 'POST', '/auth/refresh', { token: manager.refresh })).status, 401);
  });
});

describe('guests', () => {
  it('are refused on /user/find', async () => {
    const server = await startServer();
    try {
      const inviter = await signUp(server, { name: 'Inviter' });
      const followed = await request(server, 'POST', `/user/link?code=${await inviteCodeOf(server, inviter)}`);
      const find = await request(server, 'GET', `/user/find?query=${encodeURIComponent(inviter.phone)}`, { token: followed.body.jwt_info.access_token });
      assert.deepEqual([find.status, find.body.error], [403, 'guests_not_allowed']);
    } finally {
      await server.close();
    }
  });
});

describe('hostile input never gets a 5xx', () => {
  let server: TestServer;
  let person: Person;
  let admin: StaffPerson;
  before(async () => {
    server = await startServer({ RATE_LOOKUPS_PER_MINUTE: '100000', RATE_UPLOADS_PER_MINUTE: '100000' });
    admin = await quickStaff(server, 3, 'Admin');
    person = await signUp(server, { name: 'Person' });
  });
  after(() => server.close());

  const HUGE = ['1e20', '9223372036854775808', '9'.repeat(400)];
  const NUL = 'a\u0000b';

  /** Every route of the API (from the app's own list), every parameter and body field set to each hostile value. */
  it('ids past 2^53 and NUL bytes in every route: 400s, never a 5xx', async () => {
    const routes = server.app.routeList.filter((route) => route.url.startsWith('/api/') && !route.url.includes('*'));
    assert.ok(routes.length > 60, `routes found: ${routes.length}`);
    const fields = ['id', 'chat_id', 'user_id', 'message_id', 'participants', 'name', 'alias_name', 'text', 'query', 'notes', 'username',
      'phone', 'user_phone', 'code', 'search', 'password', 'extra_password', 'current_password', 'role_id', 'page_num', 'page_size'];
    const failures: string[] = [];
    for (const token of [person.token, admin.token]) {
      for (const { method, url } of routes) {
        for (const value of [...HUGE, NUL]) {
          const path = url.replace(/^\/api/, '').replace(/:[a-z_]+/g, encodeURIComponent(value));
          const query = fields.map((field) => `${field}=${encodeURIComponent(value)}`).join('&');
          const jsonValue = HUGE.includes(value) ? JSON.parse(`[${value}]`)[0] : value;
          const body = Object.fromEntries(fields.map((field) => [field, field === 'participants' ? [jsonValue] : jsonValue]));
          const answer = await request(server, method as 'GET', `${path}?${query}`, {
            token,
            ...(method === 'GET' || method === 'DELETE' ? {} : { body }),
          });
          if (answer.status >= 500) failures.push(`${method} ${url} ${JSON.stringify(value).slice(0, 30)} → ${answer.status}`);
        }
      }
    }
    assert.deepEqual(failures, []);
  });

  it('one field at a time: a NUL in a name, message or search is a clear 400', async () => {
    const friend = await signUp(server, { name: 'Friend' });
    const chatId = await privateChat(server, person, friend);
    for (const [method, path, body] of [
      ['PUT', '/user/edit', { name: NUL }],
      ['POST', '/user/contacts/add', { user_phone: randomPhone(), name: NUL }],
      ['POST', '/chat/create', { chat_type: 'group', name: NUL, participants: [friend.id] }],
      ['GET', `/chat/search?chat_id=${chatId}&query=${encodeURIComponent(NUL)}`],
      ['GET', `/user/find?query=${encodeURIComponent(NUL)}`],
      ['PUT', '/user/manager', { user_id: person.id, notes: NUL }],
    ] as const) {
      const answer = await request(server, method, path, { token: admin.token, ...(body ? { body } : {}) });
      assert.deepEqual([answer.status, answer.body.error], [400, 'nul_character'], `${method} ${path}`);
    }
    for (const path of [`/chat/${'9'.repeat(40)}`, `/chat/history?chat_id=${'9'.repeat(400)}`, `/chat/history?chat_id=1&page_size=${'9'.repeat(400)}`]) {
      const huge = await request(server, 'GET', path, { token: person.token });
      assert.equal(huge.status, 400, path);
    }
    // A path parameter longer than Fastify's limit is 414, a clear 4xx too.
    assert.equal((await request(server, 'GET', `/chat/${'9'.repeat(400)}`, { token: person.token })).status, 414);
  });

  it('a NUL or half a surrogate pair in a message over the chat socket is refused with the send’s client id', async () => {
    const friend = await signUp(server, { name: 'Friend' });
    const chatId = await privateChat(server, person, friend);
    const socket = await SocketProbe.open(`${server.wsUrl}/api/chat/socket?token=${encodeURIComponent(person.token)}`);
    try {
      const clientId = crypto.randomUUID();
      socket.send({ type: 'send', client_id: clientId, chat_id: chatId, text: NUL });
      const frames = await socket.until((all) => all.some((frame) => frame.client_id === clientId));
      const answer = frames.find((frame) => frame.client_id === clientId);
      assert.equal(answer.type, 'error');
      assert.match(answer.message, /NUL/);
      // Half of a surrogate pair: JSON carries it, the database cannot store it.
      const halfId = crypto.randomUUID();
      socket.send({ type: 'send', client_id: halfId, chat_id: chatId, text: 'hi \ud800' });
      const half = (await socket.until((all) => all.some((frame) => frame.client_id === halfId))).find((frame) => frame.client_id === halfId);
      assert.deepEqual([half.type, half.error], ['error', 'bad_frame']);
      assert.match(half.message, /Unicode/);
    } finally {
      socket.close();
    }
    const edited = await request(server, 'PUT', '/user/edit', { token: person.token, body: { name: 'Half \udc00 pair' } });
    assert.deepEqual([edited.status, edited.body.error], [400, 'invalid_unicode']);
  });
});

describe('the development SMS outbox', () => {
  it('listens on loopback by default, and answers no proxied request', async () => {
    assert.equal(loadConfig({}).host, '127.0.0.1');
    assert.equal(loadConfig({ HOST: '0.0.0.0' }).host, '0.0.0.0');
    assert.equal(loadConfig({ SMS_HTTP_URL: 'http://127.0.0.1:9/sms', PUBLIC_URL: 'https://chat.example.com' }).host, '0.0.0.0');
    const server = await startServer({ TRUST_PROXY: 'true' });
    try {
      const phone = randomPhone();
      await request(server, 'POST', '/auth/send-code', { body: { phone } });
      const local = await request(server, 'GET', `/dev/sms?phone=${encodeURIComponent(phone)}`);
      assert.equal(local.status, 200);
      const proxied = await request(server, 'GET', `/dev/sms?phone=${encodeURIComponent(phone)}`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
      assert.deepEqual([proxied.status, proxied.body.error], [403, 'dev_outbox_local_only']);
    } finally {
      await server.close();
    }
  });
});
