import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, type TestServer } from './helpers/server.js';
import { DEFAULT_PASSWORD_HASH_COST, MAX_PASSWORD_HASH_COST, hashPassword, verifyPassword } from '../src/security/passwords.js';
import { loadConfig } from '../src/config.js';
import {
  type Person,
  codeFor,
  nextEvent,
  openFlow,
  mediaTokens,
  privateChat,
  randomPhone,
  request,
  sendFrame,
  sendText,
  signUp,
  upload,
} from './helpers/client.js';
import { STAFF_PASSWORDS, type StaffPerson, makeStaff, quickStaff, signInAgain, signInStaff } from './helpers/staff.js';

const STAFF_ROUTES: Array<[string, string]> = [
  ['GET', '/user/all'],
  ['GET', '/stats/total'],
  ['GET', '/stats/managers'],
  ['GET', '/chat/list/all'],
  ['GET', '/file/tree'],
];

/** The first admin: a phone in ADMIN_PHONES signs in by SMS, then sets their passwords. */
async function firstAdmin(server: TestServer, phone: string): Promise<Person> {
  const admin = await signUp(server, { phone, name: 'Ada Admin' });
  const set = await request(server, 'POST', '/user/password', { token: admin.token, body: STAFF_PASSWORDS });
  assert.equal(set.status, 200, JSON.stringify(set.body));
  return admin;
}

type Manager = StaffPerson;
/** A manager for tests about something else (quickly, in the database); 'creates a manager' tests the API way. */
const newManager = (server: TestServer, _admin: Person, name?: string): Promise<Manager> => quickStaff(server, 1, name);

const firstStep = (server: TestServer, phone: string, password: string, ip?: string) =>
  request(server, 'POST', '/auth/sign-in-manager', { body: { phone, password }, headers: ip ? { 'x-forwarded-for': ip } : {} });
const secondStep = (server: TestServer, phone: string, password: string, ticket: string, ip?: string) =>
  request(server, 'POST', '/auth/sign-in-manager-extra', { body: { phone, password, ticket }, headers: ip ? { 'x-forwarded-for': ip } : {} });

async function ticketFor(server: TestServer, manager: Manager): Promise<string> {
  const first = await firstStep(server, manager.phone, manager.password);
  assert.equal(first.status, 200, JSON.stringify(first.body));
  return first.body.ticket;
}

async function otpCount(server: TestServer, phone: string): Promise<number> {
  const [row] = await server.db.query<{ count: number }>('SELECT count(*) AS count FROM otp_codes WHERE phone = $1', [phone]);
  return Number(row!.count);
}

/** Codes sent to this phone are made a few minutes older, so a new one may be asked for at once. */
async function ageCodes(server: TestServer, phone: string): Promise<void> {
  await server.db.query(`UPDATE otp_codes SET created_at = created_at - interval '5 minutes' WHERE phone = $1`, [phone]);
}

async function inviteCode(server: TestServer, person: Person): Promise<string> {
  return (await request(server, 'GET', '/user', { token: person.token })).body.user.invite_link.split('/').pop();
}

describe('manager sign-in', () => {
  let server: TestServer;
  const adminPhone = randomPhone();
  let admin: Person;
  before(async () => {
    // The production work factor (the other test servers hash at a lower one): what is stored is checked below.
    server = await startServer({ ADMIN_PHONES: adminPhone, PASSWORD_HASH_COST: String(DEFAULT_PASSWORD_HASH_COST) });
  });
  after(() => server.close());

  it('lets the first admin (ADMIN_PHONES) in by SMS, then refuses staff routes until both passwords are set', async () => {
    const signedUp = await signUp(server, { phone: adminPhone });
    const me = (await request(server, 'GET', '/user', { token: signedUp.token })).body.user;
    assert.deepEqual([me.role, me.password_set], [3, false]);
    for (const [method, path] of STAFF_ROUTES) {
      const refused = await request(server, method, path, { token: signedUp.token });
      assert.deepEqual([refused.status, refused.body.error], [403, 'password_setup_required'], path);
    }
    const target = await signUp(server);
    const block = await request(server, 'PUT', '/user/block', { token: signedUp.token, body: { user_id: target.id, blocked: true } });
    assert.deepEqual([block.status, block.body.error], [403, 'password_setup_required']);

    // Password rules: 8–128 characters each, and two different ones.
    const tries: Array<[Record<string, string>, string]> = [
      [{ password: 'short7!', extra_password: 'long enough 2' }, 'weak_password'],
      [{ password: 'long enough 1', extra_password: 'x'.repeat(129) }, 'weak_password'],
      [{ password: '', extra_password: 'long enough 2' }, 'weak_password'],
      [{ password: 'same password', extra_password: 'same password' }, 'same_passwords'],
    ];
    for (const [body, error] of tries) {
      const refused = await request(server, 'POST', '/user/password', { token: signedUp.token, body });
      assert.deepEqual([refused.status, refused.body.error], [400, error], JSON.stringify(body));
    }
    assert.equal((await request(server, 'GET', '/user', { token: signedUp.token })).body.user.password_set, false, 'nothing was set');
    const exactly = await request(server, 'POST', '/user/password', {
      token: signedUp.token,
      body: { password: '12345678', extra_password: 'y'.repeat(128) },
    });
    assert.equal(exactly.status, 200, 'the limits themselves are allowed');
    assert.equal(exactly.body.user.password_set, true);
    admin = signedUp;
    for (const [method, path] of STAFF_ROUTES) {
      assert.equal((await request(server, method, path, { token: admin.token })).status, 200, path);
    }

    // Changing them needs the current password.
    const missing = await request(server, 'POST', '/user/password', { token: admin.token, body: STAFF_PASSWORDS });
    assert.deepEqual([missing.status, missing.body.error], [401, 'wrong_password']);
    const wrong = await request(server, 'POST', '/user/password', { token: admin.token, body: { ...STAFF_PASSWORDS, current_password: 'nope nope' } });
    assert.deepEqual([wrong.status, wrong.body.error], [401, 'wrong_password']);
    const changed = await request(server, 'POST', '/user/password', { token: admin.token, body: { ...STAFF_PASSWORDS, current_password: '12345678' } });
    assert.equal(changed.status, 200);

    // From now on: no SMS for this phone, passwords instead.
    const outboxBefore = await codeFor(server, adminPhone);
    const codesBefore = await otpCount(server, adminPhone);
    const sent = await request(server, 'POST', '/auth/send-code', { body: { phone: adminPhone } });
    assert.equal(sent.status, 200);
    assert.deepEqual(sent.body, { is_manager: true, password_set: true });
    assert.equal(await otpCount(server, adminPhone), codesBefore, 'no code was made');
    assert.equal(await codeFor(server, adminPhone), outboxBefore, 'no new code in the outbox');
    const jwt = await signInStaff(server, adminPhone);
    const again = await request(server, 'GET', '/user', { token: jwt.access_token });
    assert.deepEqual([again.body.user.id, again.body.user.role], [admin.id, 3]);
  });

  it('hashes at the production work factor unless told otherwise, and never below it in production', () => {
    const production = { NODE_ENV: 'production', SMS_HTTP_URL: 'http://127.0.0.1:9/sms', PUBLIC_URL: 'https://chat.example' };
    assert.equal(loadConfig(production).passwordHashCost, 15);
    assert.equal(loadConfig({ ...production, PASSWORD_HASH_COST: '17' }).passwordHashCost, 17);
    assert.throws(() => loadConfig({ ...production, PASSWORD_HASH_COST: '14' }), /PASSWORD_HASH_COST must be an integer ≥ 15/);
    assert.equal(loadConfig({ NODE_ENV: 'test', PASSWORD_HASH_COST: '10' }).passwordHashCost, 10);
    assert.throws(() => loadConfig({ PASSWORD_HASH_COST: '9' }), /PASSWORD_HASH_COST/);
    assert.throws(() => loadConfig({ PASSWORD_HASH_COST: '18' }), /at most 17/);
  });

  it('hashes and checks at the highest work factor it accepts', async () => {
    const stored = await hashPassword(STAFF_PASSWORDS.password, MAX_PASSWORD_HASH_COST);
    assert.match(stored, new RegExp(`^scrypt\\$${MAX_PASSWORD_HASH_COST}\\$8\\$1\\$`));
    assert.equal(await verifyPassword(STAFF_PASSWORDS.password, stored, MAX_PASSWORD_HASH_COST), true);
    assert.equal(await verifyPassword('not the password', stored, MAX_PASSWORD_HASH_COST), false);
  });

  it('brings a hash made at another work factor to the server’s as its owner signs in', async () => {
    const manager = await quickStaff(server, 1, 'Older hashes');
    const older = { password: await hashPassword(manager.password, 10), extra: await hashPassword(manager.extra_password, 10) };
    await server.db.query('UPDATE users SET password_hash = $2, extra_password_hash = $3 WHERE id = $1', [manager.id, older.password, older.extra]);
    await signInAgain(server, manager);
    const [row] = await server.db.query<{ password_hash: string; extra_password_hash: string }>('SELECT password_hash, extra_password_hash FROM users WHERE id = $1', [manager.id]);
    for (const hash of [row!.password_hash, row!.extra_password_hash]) assert.match(hash, /^scrypt\$15\$8\$1\$/);
    assert.notEqual(row!.password_hash, older.password);
    await signInAgain(server, manager); // the new hashes check the same passwords
  });

  it('refuses /user/password to everyone but staff', async () => {
    const user = await signUp(server);
    const refused = await request(server, 'POST', '/user/password', { token: user.token, body: STAFF_PASSWORDS });
    assert.deepEqual([refused.status, refused.body.error], [403, 'staff_only']);
    const [row] = await server.db.query<{ password_hash: string | null }>('SELECT password_hash FROM users WHERE id = $1', [user.id]);
    assert.equal(row!.password_hash, null);
  });

  it('creates a manager with generated passwords, kept only as scrypt hashes; the manager signs in with both', async () => {
    const phone = randomPhone();
    const created = await request(server, 'POST', '/user/manager', { token: admin.token, body: { phone, name: ' Manny ', notes: 'north office' } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const { user, credentials } = created.body;
    assert.equal(user.role, 1);
    assert.equal(user.name, 'Manny');
    assert.equal(user.notes, 'north office');
    assert.equal(user.password_set, true);
    assert.equal(credentials.phone, phone);
    for (const password of [credentials.password, credentials.extra_password]) {
      // No letter that reads like another (0 O o, 1 l I): the admin's screen suggests passwords of the same letters.
      assert.match(password, /^[ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789]{16}$/);
    }
    assert.notEqual(credentials.password, credentials.extra_password);
    const [stored] = await server.db.query<{ password_hash: string; extra_password_hash: string }>(
      'SELECT password_hash, extra_password_hash FROM users WHERE id = $1',
      [user.id],
    );
    for (const hash of [stored!.password_hash, stored!.extra_password_hash]) {
      assert.match(hash, /^scrypt\$15\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
      assert.ok(!hash.includes(credentials.password) && !hash.includes(credentials.extra_password));
    }
    assert.notEqual(stored!.password_hash.split('$')[4], stored!.extra_password_hash.split('$')[4], 'a salt of its own each');

    // No SMS for a manager with passwords.
    const sent = await request(server, 'POST', '/auth/send-code', { body: { phone } });
    assert.deepEqual(sent.body, { is_manager: true, password_set: true });
    assert.equal(await otpCount(server, phone), 0);
    assert.equal((await request(server, 'GET', `/dev/sms?phone=${encodeURIComponent(phone)}`)).status, 404);

    const wrong = await firstStep(server, phone, 'not the password');
    assert.deepEqual([wrong.status, wrong.body.error], [401, 'wrong_password']);
    const first = await request(server, 'POST', '/auth/sign-in-manager?code=anything', { body: { phone, password: credentials.password } });
    assert.equal(first.status, 200, '?code= is accepted (and ignored)');
    assert.equal(first.body.expires_in, 300);
    assert.match(first.body.ticket, /^[A-Za-z0-9_-]{43}$/);
    const [ticketRow] = await server.db.query<{ ticket_hash: string }>('SELECT ticket_hash FROM sign_in_tickets WHERE user_id = $1', [user.id]);
    assert.ok(ticketRow && !ticketRow.ticket_hash.includes(first.body.ticket), 'the ticket is stored hashed');

    const wrongExtra = await secondStep(server, phone, credentials.password, first.body.ticket);
    assert.deepEqual([wrongExtra.status, wrongExtra.body.error], [401, 'wrong_password'], 'the first password is not the extra one');
    const otherPhone = await secondStep(server, randomPhone(), credentials.extra_password, first.body.ticket);
    assert.deepEqual([otherPhone.status, otherPhone.body.error], [401, 'invalid_ticket'], 'bound to the phone');
    const second = await request(server, 'POST', '/auth/sign-in-manager-extra?code=anything', {
      body: { phone, password: credentials.extra_password, ticket: first.body.ticket },
    });
    assert.equal(second.status, 200);
    const me = await request(server, 'GET', '/user', { token: second.body.jwt_info.access_token });
    assert.deepEqual([me.body.user.id, me.body.user.role, me.body.user.password_set], [user.id, 1, true]);
    const refreshed = await request(server, 'POST', '/auth/refresh', { token: second.body.jwt_info.refresh_token });
    assert.equal(refreshed.status, 200, 'a normal login');

    const reused = await secondStep(server, phone, credentials.extra_password, first.body.ticket);
    assert.deepEqual([reused.status, reused.body.error], [401, 'invalid_ticket'], 'single use');
    const made = await request(server, 'POST', '/auth/sign-in-manager-extra', { body: { phone, password: credentials.extra_password, ticket: 'made-up' } });
    assert.deepEqual([made.status, made.body.error], [401, 'invalid_ticket']);
  });

  it('lets a ticket live 5 minutes', async () => {
    const manager = await newManager(server, admin);
    const ticket = await ticketFor(server, manager);
    const [row] = await server.db.query<{ ttl: number }>(
      `SELECT EXTRACT(EPOCH FROM expires_at - created_at)::float8 AS ttl FROM sign_in_tickets WHERE user_id = $1`,
      [manager.id],
    );
    assert.equal(Math.round(row!.ttl), 300);
    // Five minutes later (the clock moved by moving the ticket's times back):
    await server.db.query(
      `UPDATE sign_in_tickets SET created_at = created_at - interval '301 seconds', expires_at = expires_at - interval '301 seconds' WHERE user_id = $1`,
      [manager.id],
    );
    const late = await secondStep(server, manager.phone, manager.extra_password, ticket);
    assert.deepEqual([late.status, late.body.error], [401, 'invalid_ticket']);
  });

  it('uses one ticket once even when two right answers race', async () => {
    const manager = await newManager(server, admin);
    const ticket = await ticketFor(server, manager);
    const both = await Promise.all([1, 2].map(() => secondStep(server, manager.phone, manager.extra_password, ticket)));
    assert.deepEqual(both.map((response) => response.status).sort(), [200, 401]);
  });

  it('answers not_staff the same way for unknown phones, ordinary users and staff without passwords', async () => {
    const user = await signUp(server);
    const promoted = await signUp(server);
    await server.db.query('UPDATE users SET role = 1 WHERE id = $1', [promoted.id]);
    for (const phone of [randomPhone(), user.phone, promoted.phone]) {
      const refused = await firstStep(server, phone, 'whatever it is');
      assert.deepEqual([refused.status, refused.body], [400, { error: 'not_staff', message: 'No staff account with passwords has this phone number' }]);
    }
    // Staff without passwords still get a code, and know they have no passwords yet.
    const sent = await request(server, 'POST', '/auth/send-code', { body: { phone: promoted.phone } });
    assert.equal(sent.status, 429, 'the code from sign-up was moments ago');
    await ageCodes(server, promoted.phone);
    const resent = await request(server, 'POST', '/auth/send-code', { body: { phone: promoted.phone } });
    assert.deepEqual(resent.body, { is_manager: true, password_set: false, resend_after: 60 });
  });

  it('refuses a code sign-in to staff whose passwords are set (a code sent before they were set)', async () => {
    const person = await signUp(server);
    await ageCodes(server, person.phone);
    await request(server, 'POST', '/auth/send-code', { body: { phone: person.phone } });
    const code = await codeFor(server, person.phone);
    await makeStaff(server, person, 1);
    const refused = await request(server, 'POST', '/auth/sign-in', { body: { phone: person.phone, code } });
    assert.deepEqual([refused.status, refused.body.error], [403, 'password_sign_in_required']);
  });

  it('refuses a blocked manager with "you are banned", at either step', async () => {
    const manager = await newManager(server, admin);
    const ticket = await ticketFor(server, manager);
    assert.equal((await request(server, 'PUT', '/user/block', { token: admin.token, body: { user_id: manager.id, blocked: true } })).status, 200);
    const second = await secondStep(server, manager.phone, manager.extra_password, ticket);
    assert.deepEqual([second.status, second.body.message], [403, 'you are banned']);
    const first = await firstStep(server, manager.phone, manager.password);
    assert.deepEqual([first.status, first.body.message], [403, 'you are banned']);
    const refreshed = await request(server, 'POST', '/auth/refresh', { token: manager.refresh });
    assert.deepEqual([refreshed.status, refreshed.body.message], [403, 'you are banned'], 'logins ended, and the refresh says why');
    await request(server, 'PUT', '/user/block', { token: admin.token, body: { user_id: manager.id, blocked: false } });
    assert.equal((await firstStep(server, manager.phone, manager.password)).status, 200);
  });

  it('ends a deleted manager: logins revoked, no sign-in by password or by SMS, messages kept', async () => {
    const manager = await newManager(server, admin);
    const friend = await signUp(server);
    const chatId = await privateChat(server, friend, manager);
    const sent = await sendText(server, manager, chatId, 'before I go');
    assert.equal(sent.type, 'ack');
    await server.db.query('UPDATE users SET username = $2 WHERE id = $1', [manager.id, `leaving_${manager.id}`]);
    const deleted = await request(server, 'DELETE', `/user/${manager.id}`, { token: admin.token });
    assert.deepEqual([deleted.status, deleted.body], [200, { deleted: true }]);
    assert.equal((await request(server, 'POST', '/auth/refresh', { token: manager.refresh })).status, 401);
    assert.equal((await request(server, 'GET', '/user', { token: manager.token })).body.message, 'no such user');
    const first = await firstStep(server, manager.phone, manager.password);
    assert.deepEqual([first.status, first.body.error], [400, 'not_staff']);
    await ageCodes(server, manager.phone);
    const sentCode = await request(server, 'POST', '/auth/send-code', { body: { phone: manager.phone } });
    assert.deepEqual([sentCode.status, sentCode.body.is_manager, sentCode.body.password_set], [200, false, false]);
    const bySms = await request(server, 'POST', '/auth/sign-in', { body: { phone: manager.phone, code: await codeFor(server, manager.phone) } });
    assert.deepEqual([bySms.status, bySms.body.message], [403, 'no such user']);
    const history = await request(server, 'GET', `/chat/history?chat_id=${chatId}`, { token: friend.token });
    assert.deepEqual(history.body.messages.map((message: any) => message.text), ['before I go']);
    const again = await request(server, 'DELETE', `/user/${manager.id}`, { token: admin.token });
    assert.equal(again.status, 404);
    // Their username went free with the account.
    assert.equal((await request(server, 'PUT', '/user/edit', { token: friend.token, body: { username: `leaving_${manager.id}` } })).status, 200);
  });

  it("passes a deleted manager's groups to their longest-standing member who is not deleted", async () => {
    const manager = await newManager(server, admin, 'Owner');
    const gone = await signUp(server);
    const first = await signUp(server);
    const second = await signUp(server);
    const picture = await upload(server, manager);
    assert.equal(picture.status, 201);
    const created = await request(server, 'POST', '/chat/create', {
      token: manager.token,
      body: { chat_type: 'group', name: 'Left behind', participants: [gone.id, first.id, second.id], avatar: picture.body.file.path },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const chatId = created.body.chat.id;
    assert.equal((await request(server, 'DELETE', `/user/${gone.id}`, { token: admin.token })).status, 200);
    const flow = await openFlow(server, first);
    assert.equal((await request(server, 'DELETE', `/user/${manager.id}`, { token: admin.token })).status, 200);
    // All three joined at once: the first by id who is not deleted takes over, and their tabs learn it.
    const updated = await nextEvent(flow, (event) => event.event_type === 'chat-updated' && event.additional_info.chat_id === chatId);
    assert.equal(updated.additional_info.chat.owner_id, first.id);
    flow.close();
    // The group panel sends the picture it has back with the new name: the former owner's upload, kept as it is.
    const renamed = await request(server, 'PUT', '/chat/edit', { token: first.token, body: { chat_id: chatId, name: 'Ours now', avatar: picture.body.file.path } });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.equal(renamed.body.chat.avatar, picture.body.file.path);
    // Someone else's picture, new to the group, is still refused.
    const elsewhere = await upload(server, second);
    const taken = await request(server, 'PUT', '/chat/edit', { token: first.token, body: { chat_id: chatId, avatar: elsewhere.body.file.path } });
    assert.deepEqual([taken.status, taken.body.error], [400, 'invalid_avatar']);
    const byOther = await request(server, 'PUT', '/chat/edit', { token: second.token, body: { chat_id: chatId, name: 'Mine' } });
    assert.equal(byOther.status, 403);
  });

  it('keeps staff phones out of reach by SMS through a guest or a change of phone', async () => {
    const manager = await newManager(server, admin);
    const user = await signUp(server);
    const codes = await otpCount(server, manager.phone);
    const refused = await request(server, 'PUT', '/user/phone', { token: user.token, body: { phone: manager.phone } });
    assert.deepEqual([refused.status, refused.body.error], [409, 'phone_taken']);
    assert.equal(await otpCount(server, manager.phone), codes, 'no code was sent');
  });
});

describe('wrong-password limits', () => {
  let server: TestServer;
  let admin: Person;
  const adminPhone = randomPhone();
  let ipCounter = 0;
  const freshIp = () => `198.51.100.${(ipCounter += 1)}`;
  before(async () => {
    // X-Forwarded-For is believed here, so one test host can be several addresses.
    server = await startServer({ ADMIN_PHONES: adminPhone, TRUST_PROXY: 'true' });
    admin = await firstAdmin(server, adminPhone);
  });
  after(() => server.close());

  it('allows 5 wrong passwords per account in 15 minutes, from any addresses, then 429 with Retry-After', async () => {
    const manager = await newManager(server, admin);
    for (let i = 0; i < 5; i += 1) {
      const wrong = await firstStep(server, manager.phone, `wrong ${i} password`, freshIp());
      assert.deepEqual([wrong.status, wrong.body.error], [401, 'wrong_password']);
    }
    const locked = await firstStep(server, manager.phone, manager.password, freshIp());
    assert.deepEqual([locked.status, locked.body.error], [429, 'too_many_attempts']);
    const retryAfter = Number(locked.headers.get('retry-after'));
    assert.ok(retryAfter > 890 && retryAfter <= 900, `Retry-After ${retryAfter}`);
    // Fifteen minutes later the account is open again.
    await server.db.query(`UPDATE password_attempts SET created_at = created_at - interval '15 minutes' WHERE user_id = $1`, [manager.id]);
    assert.equal((await firstStep(server, manager.phone, manager.password, freshIp())).status, 200);
  });

  it('counts wrong extra passwords toward the same limit', async () => {
    const manager = await newManager(server, admin);
    for (let i = 0; i < 3; i += 1) assert.equal((await firstStep(server, manager.phone, `wrong ${i} password`, freshIp())).status, 401);
    const ticket = (await firstStep(server, manager.phone, manager.password, freshIp())).body.ticket;
    assert.ok(ticket, 'a right password is not counted');
    for (let i = 0; i < 2; i += 1) assert.equal((await secondStep(server, manager.phone, `wrong extra ${i}`, ticket, freshIp())).status, 401);
    const locked = await secondStep(server, manager.phone, manager.extra_password, ticket, freshIp());
    assert.deepEqual([locked.status, locked.body.error], [429, 'too_many_attempts']);
    assert.ok(Number(locked.headers.get('retry-after')) > 0);
  });

  it('counts parallel guesses atomically: 10 at once get 5 tries', async () => {
    const manager = await newManager(server, admin);
    const guesses = await Promise.all(Array.from({ length: 10 }, (_, i) => firstStep(server, manager.phone, `parallel ${i} guess`, freshIp())));
    const statuses = guesses.map((guess) => guess.status).sort();
    assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429, 429, 429, 429, 429]);
  });

  it('allows 20 wrong passwords per address in 15 minutes, whatever the accounts (unknown phones count too)', async () => {
    const ip = freshIp();
    const managers = [await newManager(server, admin), await newManager(server, admin)];
    const statuses: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      // Four wrong tries on each of two managers (never their own limit), the rest on phones nobody has.
      const phone = i < 8 ? managers[i % 2]!.phone : randomPhone();
      statuses.push((await firstStep(server, phone, `wrong ${i} password`, ip)).status);
    }
    assert.deepEqual(statuses, [...Array(8).fill(401), ...Array(12).fill(400)]);
    const fresh = await newManager(server, admin);
    const locked = await firstStep(server, fresh.phone, fresh.password, ip);
    assert.deepEqual([locked.status, locked.body.error], [429, 'too_many_attempts']);
    assert.ok(Number(locked.headers.get('retry-after')) > 0);
    assert.equal((await firstStep(server, fresh.phone, fresh.password, freshIp())).status, 200, 'another address is not affected');
  });

  it('counts a wrong current password on /user/password too', async () => {
    const manager = await newManager(server, admin);
    for (let i = 0; i < 5; i += 1) {
      const wrong = await request(server, 'POST', '/user/password', {
        token: manager.token,
        body: { password: 'new password 1', extra_password: 'new password 2', current_password: `wrong ${i}` },
        headers: { 'x-forwarded-for': freshIp() },
      });
      assert.equal(wrong.status, 401);
    }
    const locked = await request(server, 'POST', '/user/password', {
      token: manager.token,
      body: { password: 'new password 1', extra_password: 'new password 2', current_password: manager.password },
      headers: { 'x-forwarded-for': freshIp() },
    });
    assert.deepEqual([locked.status, locked.body.error], [429, 'too_many_attempts']);
  });
});

describe('employees', () => {
  let server: TestServer;
  const adminPhone = randomPhone();
  /** Listed in ADMIN_PHONES, nobody's yet. */
  const spareAdminPhone = randomPhone();
  let top: Person; // role 3
  let admin: Manager; // role 2
  before(async () => {
    server = await startServer({ ADMIN_PHONES: `${adminPhone},${spareAdminPhone}` });
    top = await firstAdmin(server, adminPhone);
    admin = await newManager(server, top, 'Second Admin');
    assert.equal((await request(server, 'PUT', '/user/role', { token: top.token, body: { user_id: admin.id, role_id: 2 } })).status, 200);
    await signInAgain(server, admin); // a role change ends the person's sessions
  });
  after(() => server.close());

  const snapshot = async (id: number) =>
    JSON.stringify(await server.db.query('SELECT * FROM users WHERE id = $1', [id]));

  it('lists people for admins: staff first then by name, filters, search, invited counts, no guests', async () => {
    const zed = await signUp(server, { name: 'Zed Zulu' });
    const amy = await signUp(server, { name: 'Amy Adams' });
    await request(server, 'PUT', '/user/edit', { token: amy.token, body: { username: 'amy_a' } });
    const manager = await newManager(server, top, 'Mona Manager');
    await signUp(server, { inviteCode: await inviteCode(server, manager), name: 'Invited One' });
    const gone = await signUp(server, { inviteCode: await inviteCode(server, manager), name: 'Invited Gone' });
    await request(server, 'DELETE', `/user/${gone.id}`, { token: admin.token });
    await request(server, 'POST', `/user/link?code=${await inviteCode(server, manager)}`); // a guest: not counted, not listed

    const all = await request(server, 'GET', '/user/all', { token: admin.token });
    assert.equal(all.status, 200);
    assert.equal(all.body.truncated, false);
    const users = all.body.users;
    const firstUser = users.findIndex((user: any) => user.role === 0);
    assert.ok(users.slice(0, firstUser).every((user: any) => user.role >= 1) && users.slice(firstUser).every((user: any) => user.role === 0), 'staff first');
    assert.ok(users.indexOf(users.find((user: any) => user.id === amy.id)) < users.indexOf(users.find((user: any) => user.id === zed.id)), 'then by name');
    assert.ok(users.every((user: any) => user.deleted === false), 'deleted only when asked');
    const mona = users.find((user: any) => user.id === manager.id);
    assert.deepEqual(Object.keys(mona).sort(), ['blocked', 'created_at', 'deleted', 'id', 'invited_users', 'isMuted', 'name', 'notes', 'password_set', 'phone', 'role', 'username'].sort());
    assert.equal(mona.invited_users, 1, 'the deleted invitee and the guest are not counted');
    assert.ok(!users.some((user: any) => user.phone === null), 'no guests');

    const staffOnly = (await request(server, 'GET', '/user/all?managers=true', { token: admin.token })).body.users;
    assert.deepEqual(staffOnly.map((user: any) => user.role >= 1), staffOnly.map(() => true));
    assert.ok(staffOnly.some((user: any) => user.id === manager.id));
    const byName = (await request(server, 'GET', `/user/all?query=${encodeURIComponent(' AMY ')}`, { token: admin.token })).body.users;
    assert.deepEqual(byName.map((user: any) => user.id), [amy.id]);
    const byUsername = (await request(server, 'GET', '/user/all?query=%40amy_', { token: admin.token })).body.users;
    assert.deepEqual(byUsername.map((user: any) => user.id), [amy.id]);
    const byPhone = (await request(server, 'GET', `/user/all?query=${encodeURIComponent(zed.phone)}`, { token: admin.token })).body.users;
    assert.deepEqual(byPhone.map((user: any) => user.id), [zed.id]);
    const withDeleted = (await request(server, 'GET', '/user/all?deleted=true&query=invited', { token: admin.token })).body.users;
    assert.deepEqual(withDeleted.map((user: any) => [user.name, user.deleted]).sort(), [['Invited Gone', true], ['Invited One', false]]);

    for (const person of [manager, zed]) {
      const refused = await request(server, 'GET', '/user/all', { token: person.token });
      assert.deepEqual([refused.status, refused.body.error], [403, 'admins_only']);
    }
  });

  it('keeps ADMIN_PHONES numbers from admins: no manager made on one or moved onto one (they would sign in as top admin)', async () => {
    const refused = await request(server, 'POST', '/user/manager', { token: admin.token, body: { phone: spareAdminPhone, name: 'Not Me' } });
    assert.deepEqual([refused.status, refused.body.error], [403, 'not_allowed']);
    const manager = await newManager(server, admin);
    const before = await snapshot(manager.id);
    const moved = await request(server, 'PUT', '/user/manager', { token: admin.token, body: { user_id: manager.id, phone: spareAdminPhone } });
    assert.deepEqual([moved.status, moved.body.error], [403, 'not_allowed']);
    assert.equal(await snapshot(manager.id), before);
    assert.equal((await server.db.query('SELECT 1 FROM users WHERE phone = $1', [spareAdminPhone])).length, 0);
    // A top admin may: the role it leads to is their own.
    const made = await request(server, 'POST', '/user/manager', { token: top.token, body: { phone: spareAdminPhone, name: 'Second Top' } });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    // Until its first sign-in it is a manager on paper, yet a top admin to be: out of an admin's reach (new
    // passwords, shown to the admin, would sign them in as that top admin).
    const reset = await request(server, 'PUT', '/user/manager', { token: admin.token, body: { user_id: made.body.user.id, password: 'another pass 1', extra_password: 'another pass 2' } });
    assert.deepEqual([reset.status, reset.body.error], [403, 'not_allowed']);
    const demoted = await request(server, 'PUT', '/user/role', { token: admin.token, body: { user_id: made.body.user.id, role_id: 0 } });
    assert.deepEqual([demoted.status, demoted.body.error], [403, 'not_allowed']);
  });

  it('tells everyone who sees the person of an admin\'s rename, role change and deletion (user-updated)', async () => {
    const manager = await newManager(server, admin, 'Manny Before');
    const friend = await signUp(server);
    await privateChat(server, friend, manager);
    const flow = await openFlow(server, friend);
    const update = (predicate: (user: any) => boolean) =>
      nextEvent(flow, (event) => event.event_type === 'user-updated' && event.additional_info.user.id === manager.id && predicate(event.additional_info.user));

    assert.equal((await request(server, 'PUT', '/user/manager', { token: admin.token, body: { user_id: manager.id, notes: 'quiet' } })).status, 200);
    assert.equal((await request(server, 'PUT', '/user/manager', { token: admin.token, body: { user_id: manager.id, name: 'Manny After' } })).status, 200);
    await update((user) => user.name === 'Manny After');
    assert.equal((await request(server, 'PUT', '/user/role', { token: admin.token, body: { user_id: manager.id, role_id: 1 } })).status, 200);
    assert.equal((await request(server, 'PUT', '/user/role', { token: admin.token, body: { user_id: manager.id, role_id: 0 } })).status, 200);
    await update((user) => user.role === 0);
    assert.equal((await request(server, 'DELETE', `/user/${manager.id}`, { token: admin.token })).status, 200);
    await update((user) => user.deleted === true);
    // Notes are the staff's own, and a role given again is no change: nobody was told of them.
    assert.equal(flow.frames.filter((frame) => frame.event_type === 'user-updated').length, 3);
    // Someone promoted to manager under a new name.
    const pat = await signUp(server, { name: 'Pat' });
    await privateChat(server, friend, pat);
    assert.equal((await request(server, 'POST', '/user/manager', { token: admin.token, body: { phone: pat.phone, name: 'Pat Manager' } })).status, 201);
    const promoted = await nextEvent(flow, (event) => event.event_type === 'user-updated' && event.additional_info.user.id === pat.id);
    assert.deepEqual([promoted.additional_info.user.name, promoted.additional_info.user.role], ['Pat Manager', 1]);
    flow.close();
  });

  it('promotes an existing account to manager, refuses staff and deleted accounts, validates', async () => {
    const user = await signUp(server, { name: 'Pat' });
    const promoted = await request(server, 'POST', '/user/manager', { token: admin.token, body: { phone: user.phone, name: 'Pat Manager' } });
    assert.equal(promoted.status, 201);
    assert.deepEqual([promoted.body.user.id, promoted.body.user.role, promoted.body.user.name], [user.id, 1, 'Pat Manager']);
    // The session signed in by SMS ended with the promotion: no manager's powers without the passwords.
    const oldSession = await request(server, 'POST', '/chat/create', { token: user.token, body: { chat_type: 'group', name: 'S', participants: [], is_secret: true } });
    assert.deepEqual([oldSession.status, oldSession.body.error], [401, 'session_ended']);
    assert.equal((await request(server, 'POST', '/auth/refresh', { token: user.refresh })).status, 401);
    await signInStaff(server, user.phone, promoted.body.credentials);

    const before = await snapshot(user.id);
    const again = await request(server, 'POST', '/user/manager', { token: admin.token, body: { phone: user.phone, name: 'Again' } });
    assert.deepEqual([again.status, again.body.error], [409, 'already_staff']);
    assert.equal(await snapshot(user.id), before, 'nothing changed');

    const gone = await signUp(server);
    await request(server, 'DELETE', `/user/${gone.id}`, { token: admin.token });
    const deleted = await request(server, 'POST', '/user/manager', { token: admin.token, body: { phone: gone.phone, name: 'Back' } });
    assert.deepEqual([deleted.status, deleted.body.error], [409, 'phone_taken']);
    const badPhone = await request(server, 'POST', '/user/manager', { token: admin.token, body: { phone: '+1555', name: 'X' } });
    assert.deepEqual([badPhone.status, badPhone.body.error], [400, 'invalid_phone']);
    const noName = await request(server, 'POST', '/user/manager', { token: admin.token, body: { phone: randomPhone(), name: '   ' } });
    assert.deepEqual([noName.status, noName.body.error], [400, 'invalid_name']);
    const extra = await request(server, 'POST', '/user/manager', { token: admin.token, body: { phone: randomPhone(), name: 'X', role: 3 } });
    assert.equal(extra.status, 400, 'no mass assignment');

    const manager = await newManager(server, admin);
    const count = async () => Number((await server.db.query<{ n: number }>('SELECT count(*) AS n FROM users'))[0]!.n);
    const users = await count();
    const byManager = await request(server, 'POST', '/user/manager', { token: manager.token, body: { phone: randomPhone(), name: 'Nope' } });
    assert.deepEqual([byManager.status, byManager.body.error], [403, 'admins_only']);
    assert.equal(await count(), users);
  });

  it('edits someone below: profile fields, phone and username uniqueness, password resets that end their logins', async () => {
    const manager = await newManager(server, admin);
    const other = await signUp(server);
    await request(server, 'PUT', '/user/edit', { token: other.token, body: { username: 'taken_name' } });
    // Someone who typed the manager's old number in sees no number once it changes.
    const acquaintance = await signUp(server);
    await request(server, 'POST', '/user/contacts/add', { token: acquaintance.token, body: { user_phone: manager.phone, name: 'M.' } });
    const newPhone = randomPhone();
    const edited = await request(server, 'PUT', '/user/manager', {
      token: admin.token,
      body: { user_id: manager.id, name: 'Renamed', username: '@mgr_one', notes: 'n', phone: newPhone },
    });
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    assert.deepEqual([edited.body.user.name, edited.body.user.username, edited.body.user.notes, edited.body.user.phone], ['Renamed', 'mgr_one', 'n', newPhone]);
    assert.equal(edited.body.credentials, undefined);
    assert.equal((await request(server, 'GET', `/user/${manager.id}`, { token: acquaintance.token })).body.user.phone, undefined);
    manager.phone = newPhone;

    const before = await snapshot(manager.id);
    const phoneTaken = await request(server, 'PUT', '/user/manager', { token: admin.token, body: { user_id: manager.id, phone: other.phone } });
    assert.deepEqual([phoneTaken.status, phoneTaken.body.error], [409, 'phone_taken']);
    const usernameTaken = await request(server, 'PUT', '/user/manager', { token: admin.token, body: { user_id: manager.id, username: 'TAKEN_name' } });
    assert.deepEqual([usernameTaken.status, usernameTaken.body.error], [409, 'username_taken']);
    const weak = await request(server, 'PUT', '/user/manager', { token: admin.token, body: { user_id: manager.id, password: 'short' } });
    assert.deepEqual([weak.status, weak.body.error], [400, 'weak_password']);
    const same = await request(server, 'PUT', '/user/manager', {
      token: admin.token,
      body: { user_id: manager.id, password: manager.extra_password },
    });
    assert.deepEqual([same.status, same.body.error], [400, 'same_passwords'], 'a new password equal to the current extra one');
    const notStaff = await request(server, 'PUT', '/user/manager', { token: admin.token, body: { user_id: other.id, password: 'a fine password' } });
    assert.deepEqual([notStaff.status, notStaff.body.error], [400, 'not_staff']);
    assert.equal(await snapshot(manager.id), before, 'refused edits change nothing');

    const reset = await request(server, 'PUT', '/user/manager', {
      token: admin.token,
      body: { user_id: manager.id, password: 'brand new one 1', extra_password: 'brand new one 2' },
    });
    assert.equal(reset.status, 200);
    assert.deepEqual(reset.body.credentials, { phone: newPhone, password: 'brand new one 1', extra_password: 'brand new one 2' });
    assert.equal((await request(server, 'POST', '/auth/refresh', { token: manager.refresh })).status, 401, 'their logins ended');
    assert.equal((await firstStep(server, newPhone, manager.password)).status, 401, 'the old password is gone');
    await signInStaff(server, newPhone, { password: 'brand new one 1', extra_password: 'brand new one 2' });

    const onlyExtra = await request(server, 'PUT', '/user/manager', { token: admin.token, body: { user_id: manager.id, extra_password: 'another extra 3' } });
    assert.deepEqual(onlyExtra.body.credentials, { phone: newPhone, password: null, extra_password: 'another extra 3' });
    await signInStaff(server, newPhone, { password: 'brand new one 1', extra_password: 'another extra 3' });
  });

  it('applies the role rules to every action on a person', async () => {
    const peer = await newManager(server, top, 'Peer Admin');
    await request(server, 'PUT', '/user/role', { token: top.token, body: { user_id: peer.id, role_id: 2 } });
    await signInAgain(server, peer);
    const user = await signUp(server);
    const manager = await newManager(server, top);

    type Call = [string, string, (target: number) => unknown];
    const calls: Call[] = [
      ['PUT', '/user/role', (target) => ({ user_id: target, role_id: 0 })],
      ['PUT', '/user/mute', (target) => ({ user_id: target, isMuted: true })],
      ['PUT', '/user/block', (target) => ({ user_id: target, blocked: true })],
      ['PUT', '/user/manager', (target) => ({ user_id: target, notes: 'x' })],
      ['DELETE', '/user/', () => undefined],
    ];
    const attempt = (actor: Person, [method, path, body]: Call, target: number) =>
      request(server, method, method === 'DELETE' ? `${path}${target}` : path, { token: actor.token, body: body(target) });
    // Never oneself; never people at or above one's role.
    for (const [actor, target] of [
      [admin, admin],
      [admin, peer],
      [admin, top],
      [top, top],
    ] as Array<[Person, Person]>) {
      for (const call of calls) {
        const before = await snapshot(target.id);
        const refused = await attempt(actor, call, target.id);
        assert.deepEqual([refused.status, refused.body.error], [403, 'not_allowed'], `${call[1]} by ${actor.id} on ${target.id}`);
        assert.equal(await snapshot(target.id), before);
      }
    }
    // Managers and users have no such powers at all.
    for (const actor of [manager, user]) {
      for (const call of calls) {
        const refused = await attempt(actor, call, actor === manager ? user.id : manager.id);
        assert.deepEqual([refused.status, refused.body.error], [403, 'admins_only'], call[1]);
      }
    }
    // No role above one's own, even for someone below.
    const above = await request(server, 'PUT', '/user/role', { token: admin.token, body: { user_id: user.id, role_id: 3 } });
    assert.deepEqual([above.status, above.body.error], [403, 'not_allowed']);
    const same = await request(server, 'PUT', '/user/role', { token: admin.token, body: { user_id: user.id, role_id: 2 } });
    assert.equal(same.status, 200, 'one’s own role may be granted');
    assert.equal(same.body.user.role, 2);
    const nowPeer = await request(server, 'PUT', '/user/role', { token: admin.token, body: { user_id: user.id, role_id: 0 } });
    assert.deepEqual([nowPeer.status, nowPeer.body.error], [403, 'not_allowed'], 'once an admin, out of reach');
    assert.equal((await request(server, 'PUT', '/user/role', { token: top.token, body: { user_id: user.id, role_id: 0 } })).status, 200);
    const missing = await request(server, 'PUT', '/user/role', { token: admin.token, body: { user_id: 99_999_999, role_id: 1 } });
    assert.deepEqual([missing.status, missing.body.message], [404, 'no such user']);
    const invalid = await request(server, 'PUT', '/user/role', { token: admin.token, body: { user_id: user.id, role_id: 4 } });
    assert.equal(invalid.status, 400);
  });

  it('changes roles; back to user clears the passwords, and the person signs in by SMS again', async () => {
    const manager = await newManager(server, admin);
    const demoted = await request(server, 'PUT', '/user/role', { token: admin.token, body: { user_id: manager.id, role_id: 0 } });
    assert.deepEqual([demoted.status, demoted.body.user.role, demoted.body.user.password_set], [200, 0, false]);
    await ageCodes(server, manager.phone);
    const sent = await request(server, 'POST', '/auth/send-code', { body: { phone: manager.phone } });
    assert.deepEqual([sent.body.is_manager, sent.body.password_set, sent.body.resend_after], [false, false, 60]);
    assert.equal((await firstStep(server, manager.phone, manager.password)).status, 400);
    // The role change ended their sessions: the manager's token of a demoted person creates no secret chat.
    const secret = await request(server, 'POST', '/chat/create', { token: manager.token, body: { chat_type: 'group', name: 'S', participants: [], is_secret: true } });
    assert.deepEqual([secret.status, secret.body.error], [401, 'session_ended']);

    const user = await signUp(server);
    const promoted = await request(server, 'PUT', '/user/role', { token: admin.token, body: { user_id: user.id, role_id: 1 } });
    assert.deepEqual([promoted.body.user.role, promoted.body.user.password_set], [1, false]);
    // Their old token is dead; signed in again (by SMS: no passwords yet), they are a manager.
    assert.equal((await request(server, 'GET', '/user', { token: user.token })).status, 401);
    await ageCodes(server, user.phone);
    const again = await signUp(server, { phone: user.phone });
    const me = (await request(server, 'GET', '/user', { token: again.token })).body.user;
    assert.deepEqual([me.role, me.password_set], [1, false]);
  });

  it('mutes: a muted person cannot send until unmuted', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    const muted = await request(server, 'PUT', '/user/mute', { token: admin.token, body: { user_id: boris.id, isMuted: true } });
    assert.deepEqual([muted.status, muted.body.user.isMuted], [200, true]);
    assert.equal((await request(server, 'GET', '/user', { token: boris.token })).body.user.isMuted, true);
    const refused = await sendText(server, boris, chatId, 'can you hear me?');
    assert.deepEqual([refused.type, refused.status, refused.message], ['error', 403, "you're muted by admin"]);
    const messages = await request(server, 'GET', `/chat/history?chat_id=${chatId}`, { token: anna.token });
    assert.deepEqual(messages.body.messages, []);
    await request(server, 'PUT', '/user/mute', { token: admin.token, body: { user_id: boris.id, isMuted: false } });
    assert.equal((await sendText(server, boris, chatId, 'now?')).type, 'ack');
  });

  it('cuts the list at 200 and says so; a search finds the people past the cut', async () => {
    // Named to sort after everyone else, so the last of them falls past the cut.
    await server.db.query(
      `INSERT INTO users (phone, name, invite_code)
       SELECT '+4915177' || lpad(i::text, 6, '0'), 'Zz Crowd ' || lpad(i::text, 3, '0'), 'crowd' || i FROM generate_series(1, 200) AS i`,
    );
    const all = await request(server, 'GET', '/user/all', { token: admin.token });
    assert.deepEqual([all.status, all.body.users.length, all.body.truncated], [200, 200, true]);
    assert.ok(!all.body.users.some((user: any) => user.name === 'Zz Crowd 200'), 'the last by name is past the cut');
    const found = await request(server, 'GET', `/user/all?query=${encodeURIComponent('Zz Crowd 200')}`, { token: admin.token });
    assert.deepEqual([found.body.users.map((user: any) => user.name), found.body.truncated], [['Zz Crowd 200'], false]);
  });
});

describe('statistics', () => {
  let server: TestServer;
  const adminPhone = randomPhone();
  before(async () => {
    server = await startServer({ ADMIN_PHONES: adminPhone, GUESTS_PER_IP_PER_HOUR: '1000' });
  });
  after(() => server.close());

  it('counts per day and in total from the data, and ranks managers by who they brought in', async () => {
    const admin = await firstAdmin(server, adminPhone);
    const m1 = await newManager(server, admin, 'Alpha');
    const m2 = await newManager(server, admin, 'Bravo');
    await newManager(server, admin, 'Charlie');
    const [{ today }] = (await server.db.query<{ today: string }>(`SELECT to_char((now() AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS today`)) as [
      { today: string },
    ];
    const daysAgo = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

    // m1 brings in four (one two days ago, one a month ago, one later deleted), m2 one (and a guest, who does not
    // count).
    const i1 = await signUp(server, { inviteCode: await inviteCode(server, m1) });
    const i2 = await signUp(server, { inviteCode: await inviteCode(server, m1) });
    const i3 = await signUp(server, { inviteCode: await inviteCode(server, m1) });
    await signUp(server, { inviteCode: await inviteCode(server, m1) });
    await signUp(server, { inviteCode: await inviteCode(server, m2) });
    assert.equal((await request(server, 'POST', `/user/link?code=${await inviteCode(server, m2)}`)).status, 200);
    await server.db.query(`UPDATE users SET created_at = created_at - interval '2 days' WHERE id = $1`, [i1.id]);
    assert.equal((await request(server, 'DELETE', `/user/${i3.id}`, { token: admin.token })).status, 200);
    // Someone who joined long ago is outside the period.
    await server.db.query(`UPDATE users SET created_at = created_at - interval '30 days' WHERE id = $1`, [i2.id]);

    // Secret chats: m2 makes two today and one ten days ago; m1 one today. A plain group does not count.
    const secret = async (owner: Person) => {
      const created = await request(server, 'POST', '/chat/create', { token: owner.token, body: { chat_type: 'group', name: 'S', participants: [], is_secret: true } });
      assert.equal(created.status, 201);
      return created.body.chat.id as number;
    };
    await secret(m2);
    await secret(m2);
    const old = await secret(m2);
    await server.db.query(`UPDATE chats SET created_at = created_at - interval '10 days' WHERE id = $1`, [old]);
    const m1Secret = await secret(m1);
    const plain = await signUp(server);
    await request(server, 'POST', '/chat/create', { token: m1.token, body: { chat_type: 'group', name: 'G', participants: [plain.id] } });

    // Calls (nothing makes them yet but the meeting issue): m1 one today, m2 one today and one three days ago,
    // the plain user one today.
    const call = (callerId: number, age: string) =>
      server.db.query(`INSERT INTO calls (chat_id, caller_id, room_id, created_at, ended_at) VALUES ($1, $2, 'room', now() - $3::interval, now() - $3::interval)`, [m1Secret, callerId, age]);
    await call(m1.id, '0 days');
    await call(m2.id, '0 days');
    await call(m2.id, '3 days');
    await call(plain.id, '0 days');

    const total = await request(server, 'GET', '/stats/total?days=7', { token: admin.token });
    assert.equal(total.status, 200, JSON.stringify(total.body));
    const { series, ...figures } = total.body;
    assert.deepEqual(
      series.map((day: any) => day.date),
      [6, 5, 4, 3, 2, 1, 0].map(daysAgo),
      'one entry per day, oldest first, today last',
    );
    const byDate = Object.fromEntries(series.map((day: any) => [day.date, [day.new_users, day.calls, day.secret_chats]]));
    // Today: admin, m1, m2, m3, m1's fourth invitee, m2's invitee, the plain user (i3 is deleted, the guest is a
    // guest, i1 and i2 are older).
    assert.deepEqual(byDate[today], [7, 3, 3]);
    assert.deepEqual(byDate[daysAgo(2)], [1, 0, 0]);
    assert.deepEqual(byDate[daysAgo(3)], [0, 1, 0]);
    for (const n of [1, 4, 5, 6]) assert.deepEqual(byDate[daysAgo(n)], [0, 0, 0], `zeros on ${daysAgo(n)}`);
    // In the period m1 brought in two (i1 and the fourth), m2 one: 3 people, 3 managers.
    assert.deepEqual(figures, { days: 7, new_users: 8, calls: 4, secret_chats: 3, managers: 3, users_per_manager: 1 });

    const one = (await request(server, 'GET', '/stats/total?days=1', { token: admin.token })).body;
    assert.deepEqual([one.series.length, one.new_users, one.calls, one.secret_chats], [1, 7, 3, 3]);
    const wide = (await request(server, 'GET', '/stats/total?days=30', { token: admin.token })).body;
    assert.deepEqual([wide.series.length, wide.secret_chats], [30, 4]);

    const leaderboard = await request(server, 'GET', '/stats/managers?days=7', { token: admin.token });
    assert.equal(leaderboard.status, 200);
    assert.deepEqual(
      leaderboard.body.managers.map((row: any) => [row.name, row.invited_users, row.secret_chats, row.calls]),
      [
        ['Alpha', 2, 1, 1],
        ['Bravo', 1, 2, 2],
        ['Charlie', 0, 0, 0],
      ],
      'most invited first',
    );
    assert.deepEqual(Object.keys(leaderboard.body.managers[0]).sort(), ['calls', 'id', 'invited_users', 'name', 'phone', 'secret_chats', 'username']);
    const today1 = (await request(server, 'GET', '/stats/managers?days=1', { token: admin.token })).body.managers;
    assert.deepEqual(
      today1.map((row: any) => [row.name, row.invited_users, row.secret_chats, row.calls]),
      [
        ['Bravo', 1, 2, 1],
        ['Alpha', 1, 1, 1],
        ['Charlie', 0, 0, 0],
      ],
      'a tie on invitations goes to more secret chats',
    );
    for (const bad of ['days=0', 'days=3651', 'days=x']) {
      assert.equal((await request(server, 'GET', `/stats/managers?${bad}`, { token: admin.token })).status, 400, bad);
    }
    assert.deepEqual((await request(server, 'GET', '/stats/managers', { token: m1.token })).body.error, 'admins_only');
  });
});

describe('admin chat views and files', () => {
  let server: TestServer;
  const adminPhone = randomPhone();
  let admin: Person;
  let manager: Manager;
  let member: Person;
  let secretId: number;
  before(async () => {
    server = await startServer({ ADMIN_PHONES: adminPhone });
    admin = await firstAdmin(server, adminPhone);
    manager = await newManager(server, admin);
    member = await signUp(server);
    const created = await request(server, 'POST', '/chat/create', {
      token: manager.token,
      body: { chat_type: 'group', name: 'Secret Plans', participants: [member.id], is_secret: true },
    });
    secretId = created.body.chat.id;
  });
  after(() => server.close());

  it('lists every secret group for admins, as an observer sees it', async () => {
    await sendText(server, member, secretId, 'first');
    const other = await request(server, 'POST', '/chat/create', { token: manager.token, body: { chat_type: 'group', name: 'Quiet', participants: [], is_secret: true } });
    const plain = await request(server, 'POST', '/chat/create', { token: member.token, body: { chat_type: 'group', name: 'Plain', participants: [manager.id] } });
    const list = await request(server, 'GET', '/chat/list/all', { token: admin.token });
    assert.equal(list.status, 200);
    const ids = list.body.chats.map((chat: any) => chat.id);
    assert.deepEqual(ids.slice(0, 2), [secretId, other.body.chat.id], 'newest activity first');
    assert.ok(!ids.includes(plain.body.chat.id), 'secret groups only');
    const seen = list.body.chats[0];
    assert.deepEqual([seen.unread_messages, seen.invite_code, seen.invite_link, seen.last_message.text], [0, null, null, 'first']);
    assert.deepEqual(list.body.users.map((user: any) => user.id).sort(), [manager.id, member.id].sort());
    assert.ok(list.body.users.every((user: any) => typeof user.phone === 'string'), 'admins see phones');
    for (const person of [manager, member]) {
      assert.deepEqual((await request(server, 'GET', '/chat/list/all', { token: person.token })).body.error, 'admins_only');
    }
  });

  it('lets a non-member admin read a secret group (details, history, search), never write in it', async () => {
    const sent = await sendText(server, member, secretId, 'the plan is ready');
    const chat = await request(server, 'GET', `/chat/${secretId}`, { token: admin.token });
    assert.deepEqual([chat.status, chat.body.chat.is_secret, chat.body.chat.unread_messages, chat.body.chat.invite_code], [200, true, 0, null]);
    const history = await request(server, 'GET', `/chat/history?chat_id=${secretId}`, { token: admin.token });
    assert.equal(history.status, 200);
    assert.equal(history.body.messages.at(-1).text, 'the plan is ready');
    const search = await request(server, 'GET', `/chat/search?chat_id=${secretId}&query=PLAN`, { token: admin.token });
    assert.deepEqual(search.body.message_ids, [sent.message.id]);

    const before = await request(server, 'GET', `/chat/history?chat_id=${secretId}`, { token: member.token });
    const write = await sendText(server, admin, secretId, 'an admin writes');
    assert.deepEqual([write.type, write.status, write.message], ['error', 404, "chat isn't available anymore"]);
    const forward = await sendFrame(server, admin, { chat_id: secretId, forward_message_id: sent.message.id });
    assert.equal(forward.type, 'error');
    for (const [method, path, body] of [
      ['PUT', `/chat/read?chat_id=${secretId}`, undefined],
      ['GET', `/chat/unread-count/${secretId}`, undefined],
      ['PUT', '/chat/edit', { chat_id: secretId, name: 'Hijacked' }],
      ['PUT', '/chat/manage-participants', { chat_id: secretId, actions: [{ add: true, participants: [admin.id] }] }],
      ['PUT', '/chat/interval', { chat_id: secretId, interval: 5 }],
      ['PUT', '/chat/notifications', { chat_id: secretId, notifications: false }],
    ] as Array<[string, string, unknown]>) {
      const refused = await request(server, method, path, { token: admin.token, body });
      assert.equal(refused.status, 404, path);
    }
    const after = await request(server, 'GET', `/chat/history?chat_id=${secretId}`, { token: member.token });
    assert.deepEqual(after.body, before.body, 'nothing changed');
    assert.equal((await request(server, 'GET', `/chat/${secretId}`, { token: member.token })).body.chat.name, 'Secret Plans');

    // Plain groups and private chats stay members-only, for admins too; managers have no such view.
    const plain = await request(server, 'POST', '/chat/create', { token: member.token, body: { chat_type: 'group', name: 'Plain', participants: [manager.id] } });
    assert.equal((await request(server, 'GET', `/chat/history?chat_id=${plain.body.chat.id}`, { token: admin.token })).status, 404);
    const pair = await privateChat(server, member, manager);
    assert.equal((await request(server, 'GET', `/chat/${pair}`, { token: admin.token })).status, 404);
    const otherSecret = await request(server, 'POST', '/chat/create', { token: manager.token, body: { chat_type: 'group', name: 'S3', participants: [], is_secret: true } });
    const managerTwo = await newManager(server, admin);
    assert.equal((await request(server, 'GET', `/chat/${otherSecret.body.chat.id}`, { token: managerTwo.token })).status, 404);
  });

  it('lists the file storage to admins, and refuses every way out of its root', async () => {
    const file = (await upload(server, member)).body.file;
    const [year, month, name] = file.path.split('/');
    const root = await request(server, 'GET', '/file/tree', { token: admin.token });
    assert.equal(root.status, 200);
    assert.equal(root.body.path, '');
    assert.ok(root.body.entries.some((entry: any) => entry.name === year && entry.type === 'dir' && entry.path === year));
    const folder = await request(server, 'GET', `/file/tree?path=${year}/${month}`, { token: admin.token });
    const entry = folder.body.entries.find((item: any) => item.name === name);
    // The storage name is generated; the admin sees the name the file was uploaded with.
    assert.notEqual(name, file.name);
    assert.deepEqual(entry, { name, path: file.path, type: 'file', size: file.size, mime: 'image/png', owner_id: member.id, original_name: file.name });
    assert.equal((await request(server, 'GET', `/file/tree?path=${year}/`, { token: admin.token })).body.path, year);

    // A link inside the root that leads outside it is neither listed nor followed.
    await symlink('/etc', join(server.config.filesDir, 'outside'));
    const again = await request(server, 'GET', '/file/tree', { token: admin.token });
    assert.ok(!again.body.entries.some((item: any) => item.name === 'outside'));

    const attempts = ['..', '../', '../..', `${year}/../..`, `${year}/..`, '/etc', '%2e%2e', '%252e%252e', '..%2f', '..\\', `${year}\\..`, '.', './', '.hidden', 'a\u0000b', 'outside', '//', `${year}//${month}`];
    for (const path of attempts) {
      const refused = await rawGet(server, `/api/file/tree?path=${encodeURIComponent(path)}`, admin.token);
      assert.equal(refused.status, 400, `path ${JSON.stringify(path)}: ${refused.body}`);
      assert.ok(!refused.body.includes('passwd'), 'nothing from outside');
    }
    // Sent literally, without encoding.
    for (const raw of ['/api/file/tree?path=../..', '/api/file/tree?path=..%2F..%2Fetc', '/api/file/tree?path=%2e%2e/%2e%2e']) {
      assert.equal((await rawGet(server, raw, admin.token)).status, 400, raw);
    }
    assert.equal((await request(server, 'GET', '/file/tree?path=1999', { token: admin.token })).status, 404);
    assert.equal((await request(server, 'GET', `/file/tree?path=${encodeURIComponent(file.path)}`, { token: admin.token })).status, 404, 'a file is not a folder');
    for (const person of [manager, member]) {
      assert.deepEqual((await request(server, 'GET', '/file/tree', { token: person.token })).body.error, 'admins_only');
    }
  });

  it('gives admins media tokens for any file on the admin URLs only; normal tokens stay as they were', async () => {
    const picture = (await upload(server, member)).body.file;
    const path = picture.path;
    // The admin may not see this file the normal way: no normal token.
    assert.deepEqual(await mediaTokens(server, admin, [path]), {});
    const adminTokens = await request(server, 'POST', '/file/tokens', { token: admin.token, body: { paths: [path, '2020/01/' + 'f'.repeat(32), 'nonsense'], admin: true } });
    assert.equal(adminTokens.status, 200);
    assert.deepEqual(Object.keys(adminTokens.body.tokens), [path], 'only stored files');
    assert.equal(adminTokens.body.expires_in, 3600);
    const adminToken = adminTokens.body.tokens[path];
    const normalToken = (await mediaTokens(server, member, [path]))[path]!;

    const inline = await fetch(`${server.url}/api/receive/admin/${path}?token=${encodeURIComponent(adminToken)}`);
    assert.equal(inline.status, 200);
    assert.equal(inline.headers.get('content-type'), 'image/png');
    assert.equal(Buffer.from(await inline.arrayBuffer()).length, picture.size);
    const download = await fetch(`${server.url}/api/specific/admin/file?token=${encodeURIComponent(adminToken)}&path=${encodeURIComponent(path)}`);
    assert.equal(download.status, 200);
    assert.match(download.headers.get('content-disposition')!, /^attachment/);
    assert.equal(download.headers.get('x-content-type-options'), 'nosniff');

    // Each kind of token opens its own URLs only.
    const crossed = [
      `/api/receive/admin/${path}?token=${encodeURIComponent(normalToken)}`,
      `/api/specific/admin/file?token=${encodeURIComponent(normalToken)}&path=${encodeURIComponent(path)}`,
      `/api/receive/${path}?token=${encodeURIComponent(adminToken)}`,
      `/api/specific/file?token=${encodeURIComponent(adminToken)}&path=${encodeURIComponent(path)}`,
    ];
    for (const url of crossed) assert.equal((await fetch(`${server.url}${url}`)).status, 401, url);
    assert.equal((await fetch(`${server.url}/api/receive/${path}?token=${encodeURIComponent(normalToken)}`)).status, 200, 'normal tokens still work');
    assert.equal((await fetch(`${server.url}/api/receive/admin/2020/01/${'a'.repeat(32)}?token=${encodeURIComponent(adminToken)}`)).status, 401, 'bound to its path');
    assert.equal((await fetch(`${server.url}/api/receive/admin/../../etc/passwd?token=x`)).status, 404);

    // Only admins get them, and an admin token works only while its holder is an admin.
    for (const person of [manager, member]) {
      const refused = await request(server, 'POST', '/file/tokens', { token: person.token, body: { paths: [path], admin: true } });
      assert.deepEqual([refused.status, refused.body.error], [403, 'admins_only']);
    }
    const second = await newManager(server, admin);
    await request(server, 'PUT', '/user/role', { token: admin.token, body: { user_id: second.id, role_id: 2 } });
    await signInAgain(server, second);
    const secondToken = (await request(server, 'POST', '/file/tokens', { token: second.token, body: { paths: [path], admin: true } })).body.tokens[path];
    assert.equal((await fetch(`${server.url}/api/receive/admin/${path}?token=${encodeURIComponent(secondToken)}`)).status, 200);
    await request(server, 'PUT', '/user/role', { token: admin.token, body: { user_id: second.id, role_id: 1 } });
    assert.equal((await fetch(`${server.url}/api/receive/admin/${path}?token=${encodeURIComponent(secondToken)}`)).status, 401, 'demoted: the token is dead');
  });
});

/** A GET with the path and query sent exactly as given (fetch would normalise them). */
function rawGet(server: TestServer, path: string, token: string): Promise<{ status: number; body: string }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method: 'GET', path, headers: { authorization: `Bearer ${token}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}
