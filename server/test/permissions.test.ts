// THE PERMISSION MATRIX: every route of the API, called by every kind of caller, with the status each must get.
// One fixture world; one row per route (or per variant of a route); refused changes are checked to change nothing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import WebSocket from 'ws';
import { startServer, type TestServer } from './helpers/server.js';
import {
  type HttpResult,
  type Person,
  chatSocketUrl,
  flowUrl,
  privateChat,
  randomPhone,
  request,
  sendFrame,
  sendText,
  signUp,
  upload,
} from './helpers/client.js';
import { STAFF_PASSWORDS, createManager, signInAgain } from './helpers/staff.js';

/** The columns of the matrix. */
/** A local port nothing listens on (discard): the matrix's push subscriptions point there. */
const PUSH_NOWHERE = 'http://127.0.0.1:9';
/** A browser's subscription keys (a valid P-256 point and auth secret), for subscriptions never really pushed to. */
const PUSH_KEYS = (() => {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
})();

const ACTORS = ['anon', 'guest', 'user', 'nonMember', 'owner', 'member', 'manager', 'admin'] as const;
type ActorName = (typeof ACTORS)[number];

/**
 * - anon: no token at all;
 * - guest: a temporary account that followed `user`'s invite link (its one chat is with `user`);
 * - user: an ordinary person with nothing to do with the chats below (their invite link made the guest);
 * - nonMember: another ordinary person, in none of the chats below;
 * - owner: an ordinary person who owns the group G (and J), in the private chat P with member;
 * - member: an ordinary person in G, J, P and in the secret group S;
 * - manager: role 1 with passwords, made by an admin; owns the secret group S;
 * - admin: role 2 with passwords; in none of the chats.
 */
interface Actor {
  name: ActorName;
  person: Person | null;
  password?: string;
  extra_password?: string;
}

interface World {
  top: Person; // role 3 (ADMIN_PHONES): makes the fixture, is no column
  actors: Record<ActorName, Actor>;
  subject: Person; // an ordinary person staff act on
  G: number; // group: owner + member
  J: number; // group with a join code: owner + member
  joinCode: string;
  S: number; // secret group: manager (owner) + member
  P: number; // private chat: member + owner
  file: string; // an image member sent in G
  userInviteCode: string;
}

type Ctx = Record<string, any>;

interface Row {
  /** The route as registered: METHOD and URL (with :params and *). */
  route: string;
  /** What this row does with it, when a route has several rows. */
  variant?: string;
  /** Expected status per actor, in the order of ACTORS: [anon, guest, user, nonMember, owner, member, manager, admin]. 101: a WebSocket opened. */
  expect: readonly number[];
  /** Fresh resources for one call (so that a success does not change the next actor's situation). */
  setup?: (as: Actor, world: World) => Promise<Ctx>;
  call: (as: Actor, world: World, ctx: Ctx) => Promise<HttpResult | { status: number; body?: any }>;
  /** More checks on the answer (e.g. what a successful call may see). */
  check?: (as: Actor, result: HttpResult | { status: number; body?: any }, world: World) => void;
  /** Whether the call would change something (checked to change nothing when refused). Default: not GET. */
  mutating?: boolean;
}

describe('permission matrix: every route × every kind of caller', () => {
  let server: TestServer;
  let world: World;
  const topPhone = randomPhone();
  before(async () => {
    // The matrix is about who may do what: the per-person rate limits (rate-limits.test.ts) are lifted out of its way.
    server = await startServer({
      ADMIN_PHONES: topPhone,
      GUESTS_PER_IP_PER_HOUR: '1000',
      RATE_SOCKETS_PER_MINUTE: '1000',
      RATE_MESSAGES_PER_10S: '1000',
      // Push subscriptions of the matrix point at a closed local port: pushes fail at once, nothing leaves the host.
      PUSH_EXTRA_ORIGINS: PUSH_NOWHERE,
    });
    world = await buildWorld(server, topPhone);
  });
  after(() => server.close());

  const req = (as: Actor, method: string, path: string, body?: unknown) =>
    request(server, method, path, { ...(as.person ? { token: as.person.token } : {}), ...(body === undefined ? {} : { body }) });
  const freshPerson = async () => ({ target: await signUp(server, { name: 'Target' }) });
  const isStaff = (as: Actor) => as.password !== undefined;
  const tokenOf = (as: Actor) => as.person?.token;

  // expect: [anon, guest, user, nonMember, owner, member, manager, admin]
  const rows: Row[] = [
    // ── public ──
    { route: 'GET /api/health', expect: [200, 200, 200, 200, 200, 200, 200, 200], call: (as) => req(as, 'GET', '/health') },
    { route: 'GET /api/dev/sms', expect: [200, 200, 200, 200, 200, 200, 200, 200], call: (as, w) => req(as, 'GET', `/dev/sms?phone=${encodeURIComponent(w.top.phone)}`) },
    { route: 'GET /remotes.json', expect: [200, 200, 200, 200, 200, 200, 200, 200], call: async () => fetchStatus(`${server.url}/remotes.json`) },

    // ── authentication ──
    { route: 'POST /api/auth/send-code', expect: [200, 200, 200, 200, 200, 200, 200, 200], call: (as) => req(as, 'POST', '/auth/send-code', { phone: randomPhone() }) },
    { route: 'POST /api/auth/sign-in', expect: [400, 400, 400, 400, 400, 400, 400, 400], call: (as) => req(as, 'POST', '/auth/sign-in', { phone: randomPhone(), code: '123456' }) },
    {
      route: 'POST /api/auth/refresh',
      variant: 'with one’s own refresh token',
      expect: [401, 200, 200, 200, 200, 200, 200, 200],
      call: async (as) => {
        const result = await request(server, 'POST', '/auth/refresh', as.person ? { token: as.person.refresh } : {});
        if (result.status === 200) as.person!.refresh = result.body.jwt_info.refresh_token;
        return result;
      },
    },
    {
      route: 'POST /api/auth/sign-in-manager',
      variant: 'own phone, own password',
      expect: [400, 400, 400, 400, 400, 400, 200, 200],
      setup: async () => {
        await server.db.query('DELETE FROM password_attempts'); // the whole matrix comes from one address
        return {};
      },
      call: (as) =>
        request(server, 'POST', '/auth/sign-in-manager', { body: { phone: as.person?.phone || randomPhone(), password: as.password ?? 'not a password' } }),
    },
    {
      route: 'POST /api/auth/sign-in-manager-extra',
      variant: 'own ticket (staff) or a made-up one',
      expect: [401, 401, 401, 401, 401, 401, 200, 200],
      setup: async (as) => {
        if (!isStaff(as)) return { ticket: 'made-up-ticket' };
        const first = await request(server, 'POST', '/auth/sign-in-manager', { body: { phone: as.person!.phone, password: as.password } });
        return { ticket: first.body.ticket };
      },
      call: (as, _w, ctx) =>
        request(server, 'POST', '/auth/sign-in-manager-extra', {
          body: { phone: as.person?.phone || randomPhone(), password: as.extra_password ?? 'not a password', ticket: ctx.ticket },
        }),
    },

    // ── push (issue 14): one's own browser's subscription ──
    { route: 'GET /api/push/key', expect: [401, 200, 200, 200, 200, 200, 200, 200], call: (as) => req(as, 'GET', '/push/key') },
    {
      route: 'PUT /api/push/subscription',
      expect: [401, 204, 204, 204, 204, 204, 204, 204],
      call: (as) => req(as, 'PUT', '/push/subscription', { endpoint: `${PUSH_NOWHERE}/push/${randomUUID()}`, keys: PUSH_KEYS, language: 'en' }),
    },
    {
      route: 'DELETE /api/push/subscription',
      variant: 'someone else’s: answered alike, removes nothing',
      expect: [401, 204, 204, 204, 204, 204, 204, 204],
      mutating: false,
      setup: async (_as, w) => {
        const endpoint = `${PUSH_NOWHERE}/push/${randomUUID()}`;
        const saved = await request(server, 'PUT', '/push/subscription', { token: w.top.token, body: { endpoint, keys: PUSH_KEYS, language: 'en' } });
        assert.equal(saved.status, 204);
        return { endpoint };
      },
      call: async (as, _w, ctx) => {
        const result = await req(as, 'DELETE', '/push/subscription', { endpoint: ctx.endpoint });
        const [left] = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM push_subscriptions WHERE endpoint = $1', [ctx.endpoint]);
        assert.equal(left?.n, 1, 'the owner’s subscription stays');
        return result;
      },
    },

    // ── oneself ──
    { route: 'GET /api/user', expect: [401, 200, 200, 200, 200, 200, 200, 200], call: (as) => req(as, 'GET', '/user') },
    { route: 'PUT /api/user/edit', variant: 'own name', expect: [401, 200, 200, 200, 200, 200, 403, 200], call: (as) => req(as, 'PUT', '/user/edit', { name: as.name }) },
    { route: 'GET /api/user/find', expect: [401, 403, 200, 200, 200, 200, 200, 200], call: (as) => req(as, 'GET', '/user/find?query=someone') },
    { route: 'GET /api/user/:id', variant: 'owner', expect: [401, 200, 200, 200, 200, 200, 200, 200], call: (as, w) => req(as, 'GET', `/user/${w.actors.owner.person!.id}`) },
    {
      route: 'POST /api/user/link',
      variant: 'user’s invite link',
      expect: [200, 200, 400, 200, 200, 200, 200, 200],
      call: (as, w) => req(as, 'POST', `/user/link?code=${w.userInviteCode}`),
    },
    { route: 'PUT /api/user/phone', expect: [401, 200, 200, 200, 200, 200, 200, 200], call: (as) => req(as, 'PUT', '/user/phone', { phone: randomPhone() }) },
    {
      route: 'PUT /api/user/phone/verify',
      variant: 'a code never sent',
      expect: [401, 400, 400, 400, 400, 400, 400, 400],
      call: (as) => req(as, 'PUT', '/user/phone/verify', { phone: randomPhone(), code: '123456' }),
    },
    {
      route: 'POST /api/user/password',
      variant: 'own passwords (current one given)',
      expect: [401, 403, 403, 403, 403, 403, 200, 200],
      call: (as) =>
        req(as, 'POST', '/user/password', isStaff(as) ? { password: as.password, extra_password: as.extra_password, current_password: as.password } : STAFF_PASSWORDS),
    },

    // ── employees (admins) ──
    { route: 'GET /api/user/all', expect: [401, 403, 403, 403, 403, 403, 403, 200], call: (as) => req(as, 'GET', '/user/all') },
    { route: 'POST /api/user/manager', expect: [401, 403, 403, 403, 403, 403, 403, 201], call: (as) => req(as, 'POST', '/user/manager', { phone: randomPhone(), name: 'New One' }) },
    { route: 'PUT /api/user/manager', variant: 'subject’s notes', expect: [401, 403, 403, 403, 403, 403, 403, 200], call: (as, w) => req(as, 'PUT', '/user/manager', { user_id: w.subject.id, notes: 'noted' }) },
    {
      route: 'PUT /api/user/role',
      variant: 'someone new → manager',
      expect: [401, 403, 403, 403, 403, 403, 403, 200],
      setup: freshPerson,
      call: (as, _w, ctx) => req(as, 'PUT', '/user/role', { user_id: ctx.target.id, role_id: 1 }),
    },
    { route: 'PUT /api/user/mute', variant: 'subject', expect: [401, 403, 403, 403, 403, 403, 403, 200], call: (as, w) => req(as, 'PUT', '/user/mute', { user_id: w.subject.id, isMuted: false }) },
    {
      route: 'PUT /api/user/block',
      variant: 'someone new',
      expect: [401, 403, 403, 403, 403, 403, 403, 200],
      setup: freshPerson,
      call: (as, _w, ctx) => req(as, 'PUT', '/user/block', { user_id: ctx.target.id, blocked: true }),
    },
    {
      route: 'DELETE /api/user/:id',
      variant: 'someone new',
      expect: [401, 403, 403, 403, 403, 403, 403, 200],
      setup: freshPerson,
      call: (as, _w, ctx) => req(as, 'DELETE', `/user/${ctx.target.id}`),
    },

    // ── contacts ──
    { route: 'GET /api/user/contacts', expect: [401, 403, 200, 200, 200, 200, 200, 200], call: (as) => req(as, 'GET', '/user/contacts') },
    {
      route: 'POST /api/user/contacts/add',
      variant: 'subject',
      expect: [401, 403, 200, 200, 200, 200, 200, 200],
      call: (as, w) => req(as, 'POST', '/user/contacts/add', { user_phone: w.subject.phone, name: 'Subject' }),
    },
    {
      route: 'PUT /api/user/contacts/edit',
      variant: 'member’s contact (owner)',
      expect: [401, 403, 404, 404, 404, 200, 404, 404],
      call: (as, w) => req(as, 'PUT', '/user/contacts/edit', { user_id: w.actors.owner.person!.id, name: 'Owner' }),
    },
    {
      route: 'DELETE /api/user/contacts/:id',
      variant: 'member’s contact (owner)',
      expect: [401, 403, 404, 404, 404, 200, 404, 404],
      call: (as, w) => req(as, 'DELETE', `/user/contacts/${w.actors.owner.person!.id}`),
    },

    // ── chats ──
    { route: 'GET /api/chat/list', expect: [401, 200, 200, 200, 200, 200, 200, 200], call: (as) => req(as, 'GET', '/chat/list') },
    { route: 'GET /api/chat/list/all', expect: [401, 403, 403, 403, 403, 403, 403, 200], call: (as) => req(as, 'GET', '/chat/list/all') },
    {
      route: 'POST /api/chat/create',
      variant: 'private, with subject',
      expect: [401, 403, 201, 201, 201, 201, 201, 201],
      call: (as, w) => req(as, 'POST', '/chat/create', { chat_type: 'private', participants: [w.subject.id] }),
    },
    {
      route: 'POST /api/chat/create',
      variant: 'group, with subject',
      expect: [401, 403, 201, 201, 201, 201, 201, 201],
      call: (as, w) => req(as, 'POST', '/chat/create', { chat_type: 'group', name: 'New', participants: [w.subject.id] }),
    },
    {
      route: 'POST /api/chat/create',
      variant: 'secret group',
      expect: [401, 403, 403, 403, 403, 403, 201, 201],
      call: (as) => req(as, 'POST', '/chat/create', { chat_type: 'group', name: 'Hush', participants: [], is_secret: true }),
    },
    { route: 'PUT /api/chat/edit', variant: 'G', expect: [401, 404, 404, 404, 200, 403, 404, 404], call: (as, w) => req(as, 'PUT', '/chat/edit', { chat_id: w.G, name: 'Group' }) },
    {
      route: 'PUT /api/chat/manage-participants',
      variant: 'G',
      expect: [401, 404, 404, 404, 200, 403, 404, 404],
      call: (as, w) => req(as, 'PUT', '/chat/manage-participants', { chat_id: w.G, actions: [{ add: true, participants: [w.actors.member.person!.id] }] }),
    },
    { route: 'POST /api/chat/join', variant: 'J’s code', expect: [401, 403, 200, 200, 200, 200, 200, 200], call: (as, w) => req(as, 'POST', '/chat/join', { code: w.joinCode }) },
    { route: 'GET /api/chat/find', expect: [401, 403, 200, 200, 200, 200, 200, 200], call: (as) => req(as, 'GET', '/chat/find?query=g') },
    { route: 'GET /api/chat/find', variant: 'is_admin=true', expect: [401, 403, 403, 403, 403, 403, 403, 200], call: (as) => req(as, 'GET', '/chat/find?query=&is_admin=true') },
    {
      route: 'PUT /api/chat/notifications',
      variant: 'G',
      expect: [401, 404, 404, 404, 200, 200, 404, 404],
      call: (as, w) => req(as, 'PUT', '/chat/notifications', { chat_id: w.G, notifications: true }),
    },
    { route: 'PUT /api/chat/interval', variant: 'G', expect: [401, 404, 404, 404, 200, 403, 404, 404], call: (as, w) => req(as, 'PUT', '/chat/interval', { chat_id: w.G, interval: 0 }) },
    {
      route: 'GET /api/chat/history',
      variant: 'G',
      expect: [401, 404, 404, 404, 200, 200, 404, 404],
      call: (as, w) => req(as, 'GET', `/chat/history?chat_id=${w.G}`),
      check: noDataWhenRefused,
    },
    {
      route: 'GET /api/chat/history',
      variant: 'S (secret)',
      expect: [401, 404, 404, 404, 404, 200, 200, 200],
      call: (as, w) => req(as, 'GET', `/chat/history?chat_id=${w.S}`),
      check: noDataWhenRefused,
    },
    { route: 'GET /api/chat/search', variant: 'G', expect: [401, 404, 404, 404, 200, 200, 404, 404], call: (as, w) => req(as, 'GET', `/chat/search?chat_id=${w.G}&query=hello`) },
    { route: 'GET /api/chat/search', variant: 'S (secret)', expect: [401, 404, 404, 404, 404, 200, 200, 200], call: (as, w) => req(as, 'GET', `/chat/search?chat_id=${w.S}&query=psst`) },
    { route: 'PUT /api/chat/read', variant: 'G', expect: [401, 404, 404, 404, 200, 200, 404, 404], call: (as, w) => req(as, 'PUT', `/chat/read?chat_id=${w.G}`) },
    { route: 'PUT /api/chat/read', variant: 'S (secret)', expect: [401, 404, 404, 404, 404, 200, 200, 404], call: (as, w) => req(as, 'PUT', `/chat/read?chat_id=${w.S}`) },
    { route: 'GET /api/chat/unread-count/:id', variant: 'G', expect: [401, 404, 404, 404, 200, 200, 404, 404], call: (as, w) => req(as, 'GET', `/chat/unread-count/${w.G}`) },
    { route: 'GET /api/chat/:id', variant: 'G', expect: [401, 404, 404, 404, 200, 200, 404, 404], call: (as, w) => req(as, 'GET', `/chat/${w.G}`), check: noDataWhenRefused },
    { route: 'GET /api/chat/:id', variant: 'S (secret)', expect: [401, 404, 404, 404, 404, 200, 200, 200], call: (as, w) => req(as, 'GET', `/chat/${w.S}`), check: noDataWhenRefused },
    { route: 'GET /api/chat/:id', variant: 'P (private)', expect: [401, 404, 404, 404, 200, 200, 404, 404], call: (as, w) => req(as, 'GET', `/chat/${w.P}`), check: noDataWhenRefused },
    {
      route: 'DELETE /api/chat/:id',
      variant: 'a new group of owner and member',
      expect: [401, 404, 404, 404, 200, 200, 404, 404],
      setup: async (_as, w) => ({ chat: await group(server, w.actors.owner.person!, [w.actors.member.person!]) }),
      call: (as, _w, ctx) => req(as, 'DELETE', `/chat/${ctx.chat}`),
    },
    {
      route: 'DELETE /api/chat/:id',
      variant: 'a new secret group of manager and member',
      expect: [401, 404, 404, 404, 404, 200, 200, 200],
      setup: async (_as, w) => ({ chat: await group(server, w.actors.manager.person!, [w.actors.member.person!], true) }),
      call: (as, _w, ctx) => req(as, 'DELETE', `/chat/${ctx.chat}`),
    },
    {
      route: 'DELETE /api/chat/message/:id',
      variant: 'a new message of member in G',
      expect: [401, 404, 404, 404, 200, 200, 404, 404],
      setup: async (_as, w) => ({ message: (await sendText(server, w.actors.member.person!, w.G, 'delete me')).message.id }),
      call: (as, _w, ctx) => req(as, 'DELETE', `/chat/message/${ctx.message}`),
    },
    {
      route: 'DELETE /api/chat/message/:id',
      variant: 'a new message of member in S',
      expect: [401, 404, 404, 404, 404, 200, 200, 200],
      setup: async (_as, w) => ({ message: (await sendText(server, w.actors.member.person!, w.S, 'delete me')).message.id }),
      call: (as, _w, ctx) => req(as, 'DELETE', `/chat/message/${ctx.message}`),
    },
    {
      route: 'PUT /api/chat/message/:id/reaction',
      variant: 'a message of member in G',
      expect: [401, 404, 404, 404, 200, 200, 404, 404],
      setup: async (_as, w) => ({ message: (await sendText(server, w.actors.member.person!, w.G, 'react to me')).message.id }),
      call: (as, _w, ctx) => req(as, 'PUT', `/chat/message/${ctx.message}/reaction`, { emoji: '👍' }),
      check: noDataWhenRefused,
    },
    {
      route: 'PUT /api/chat/message/:id/reaction',
      variant: 'a message of member in S (secret)',
      expect: [401, 404, 404, 404, 404, 200, 200, 404],
      setup: async (_as, w) => ({ message: (await sendText(server, w.actors.member.person!, w.S, 'react to me')).message.id }),
      call: (as, _w, ctx) => req(as, 'PUT', `/chat/message/${ctx.message}/reaction`, { emoji: '👍' }),
      check: noDataWhenRefused,
    },
    {
      route: 'DELETE /api/chat/message/:id/reaction',
      variant: 'a message of member in G',
      expect: [401, 404, 404, 404, 200, 200, 404, 404],
      setup: async (_as, w) => ({ message: (await sendText(server, w.actors.member.person!, w.G, 'react to me')).message.id }),
      call: (as, _w, ctx) => req(as, 'DELETE', `/chat/message/${ctx.message}/reaction`),
      check: noDataWhenRefused,
    },
    {
      route: 'PUT /api/chat/message/:id',
      variant: 'a new message of member in G',
      expect: [401, 404, 404, 404, 403, 200, 404, 404],
      setup: async (_as, w) => ({ message: (await sendText(server, w.actors.member.person!, w.G, 'edit me')).message.id }),
      call: (as, _w, ctx) => req(as, 'PUT', `/chat/message/${ctx.message}`, { text: 'edited' }),
      check: noDataWhenRefused,
    },
    {
      route: 'GET /api/chat/message/:id/readers',
      variant: 'a message of member in G',
      expect: [401, 404, 404, 404, 403, 200, 404, 404],
      setup: async (_as, w) => ({ message: (await sendText(server, w.actors.member.person!, w.G, 'who read me')).message.id }),
      call: (as, _w, ctx) => req(as, 'GET', `/chat/message/${ctx.message}/readers`),
      check: noDataWhenRefused,
    },
    {
      route: 'GET /api/chat/message/:id/readers',
      variant: 'a message of member in S (secret)',
      expect: [401, 404, 404, 404, 404, 200, 403, 404],
      setup: async (_as, w) => ({ message: (await sendText(server, w.actors.member.person!, w.S, 'who read me')).message.id }),
      call: (as, _w, ctx) => req(as, 'GET', `/chat/message/${ctx.message}/readers`),
      check: noDataWhenRefused,
    },
    {
      route: 'GET /api/user/:id/presence',
      variant: 'a new person in a private chat with member',
      expect: [401, 404, 404, 404, 404, 200, 404, 404],
      setup: async (_as, w) => {
        const target = await signUp(server);
        await privateChat(server, target, w.actors.member.person!);
        return { target: target.id };
      },
      call: (as, _w, ctx) => req(as, 'GET', `/user/${ctx.target}/presence`),
      check: noDataWhenRefused,
    },
    { route: 'GET /api/chat/call/history', expect: [401, 200, 200, 200, 200, 200, 200, 200], call: (as) => req(as, 'GET', '/chat/call/history') },

    // ── calls: members of the chat only (a running call is started by `owner` in G before each call) ──
    { route: 'POST /api/meet/call', variant: 'G', expect: [401, 404, 404, 404, 200, 200, 404, 404], setup: () => endCalls(), call: (as, w) => req(as, 'POST', '/meet/call', { chat_id: w.G }) },
    { route: 'POST /api/meet/call', variant: 'S (secret)', expect: [401, 404, 404, 404, 404, 200, 200, 404], setup: () => endCalls(), call: (as, w) => req(as, 'POST', '/meet/call', { chat_id: w.S }) },
    { route: 'POST /api/meet/reject', variant: 'G', expect: [401, 404, 404, 404, 200, 200, 404, 404], setup: (_as, w) => callIn(w.G, w.actors.owner), call: (as, w) => req(as, 'POST', '/meet/reject', { chat_id: w.G }) },
    { route: 'GET /api/meet/get-token', variant: 'G', expect: [401, 404, 404, 404, 200, 200, 404, 404], setup: (_as, w) => callIn(w.G, w.actors.owner), call: (as, w) => req(as, 'GET', `/meet/get-token?chat_id=${w.G}`), check: noDataWhenRefused },
    { route: 'GET /api/meet/participants', variant: 'G', expect: [401, 404, 404, 404, 200, 200, 404, 404], setup: (_as, w) => callIn(w.G, w.actors.owner), call: (as, w) => req(as, 'GET', `/meet/participants?chat_id=${w.G}`), check: noDataWhenRefused },
    { route: 'GET /api/chat/call-id', variant: 'G', expect: [401, 404, 404, 404, 200, 200, 404, 404], setup: (_as, w) => callIn(w.G, w.actors.owner), call: (as, w) => req(as, 'GET', `/chat/call-id?chat_id=${w.G}`), check: noDataWhenRefused },
    { route: 'GET /api/chat/recording', variant: 'G', expect: [401, 403, 403, 403, 403, 403, 403, 200], call: (as, w) => req(as, 'GET', `/chat/recording?chat_id=${w.G}`) },
    { route: 'PUT /api/chat/recording', variant: 'G off', expect: [401, 403, 403, 403, 403, 403, 403, 200], call: (as, w) => req(as, 'PUT', '/chat/recording', { chat_id: w.G, enabled: false }) },
    {
      route: 'GET /api/meet/room/:chatId/websocket',
      variant: 'with the meeting token one can get for G',
      expect: [401, 401, 401, 401, 101, 101, 401, 401],
      setup: async (as, w) => {
        await callIn(w.G, w.actors.owner);
        const got = as.person ? await request(server, 'GET', `/meet/get-token?chat_id=${w.G}`, { token: as.person.token }) : null;
        return { token: got?.status === 200 ? got.body.token : 'none' };
      },
      call: async (_as, w, ctx) => ({ status: await upgradeStatus(`${server.wsUrl}/api/meet/room/${w.G}/websocket?token=${ctx.token}`) }),
    },
    {
      route: 'POST /api/file/upload/meet-audio',
      variant: 'G recorded, owner and member in the call',
      expect: [401, 403, 403, 403, 201, 201, 403, 403],
      setup: async (_as, w) => {
        await server.db.query('UPDATE chats SET recording = true WHERE id = $1', [w.G]);
        const call = await callIn(w.G, w.actors.owner);
        await server.db.query('UPDATE chats SET recording = false WHERE id = $1', [w.G]);
        for (const person of [w.actors.owner.person!, w.actors.member.person!]) {
          await server.db.query('INSERT INTO call_participants (call_id, user_id) VALUES ($1, $2)', [call.callId, person.id]);
        }
        return call;
      },
      call: (as, w, ctx) =>
        upload(server, as.person ?? undefined, { name: 'call.webm', type: 'audio/webm', data: webmBytes() }, 'file', `/file/upload/meet-audio?chat_id=${w.G}&message_id=${ctx.messageId}`),
    },

    // ── the chat socket: sending (members only, admins included) ──
    {
      route: 'GET /api/chat/socket',
      variant: 'upgrade',
      expect: [401, 101, 101, 101, 101, 101, 101, 101],
      call: async (as) => ({ status: await upgradeStatus(chatSocketUrl(server, tokenOf(as) ?? '').replace(/token=$/, '')) }),
    },
    {
      route: 'GET /api/chat/socket',
      variant: 'send to G',
      expect: [401, 404, 404, 404, 200, 200, 404, 404],
      mutating: true,
      call: (as, w) => socketSend(as, { chat_id: w.G, text: 'hello from the matrix' }),
    },
    {
      route: 'GET /api/chat/socket',
      variant: 'send to S (secret)',
      expect: [401, 404, 404, 404, 404, 200, 200, 404],
      mutating: true,
      call: (as, w) => socketSend(as, { chat_id: w.S, text: 'psst' }),
    },
    {
      route: 'GET /api/user/flow',
      variant: 'upgrade',
      expect: [401, 101, 101, 101, 101, 101, 101, 101],
      call: async (as) => ({ status: await upgradeStatus(flowUrl(server, tokenOf(as) ?? '').replace(/token=$/, '')) }),
    },

    // ── files ──
    { route: 'POST /api/file/upload', expect: [401, 201, 201, 201, 201, 201, 201, 201], call: async (as) => upload(server, as.person ?? undefined) },
    {
      route: 'POST /api/file/tokens',
      variant: 'a file sent in G',
      expect: [401, 200, 200, 200, 200, 200, 200, 200],
      call: (as, w) => req(as, 'POST', '/file/tokens', { paths: [w.file] }),
      check: (as, result, w) => {
        const maySee = as.name === 'owner' || as.name === 'member';
        if (result.status === 200) assert.deepEqual(Object.keys(result.body.tokens), maySee ? [w.file] : [], `${as.name} sees only what they may`);
      },
    },
    {
      route: 'POST /api/file/tokens',
      variant: 'admin: true',
      expect: [401, 403, 403, 403, 403, 403, 403, 200],
      call: (as, w) => req(as, 'POST', '/file/tokens', { paths: [w.file], admin: true }),
    },
    {
      route: 'GET /api/receive/*',
      variant: 'the token one could get for the file of G',
      expect: [401, 401, 401, 401, 200, 200, 401, 401],
      setup: (as, w) => tokenFor(as, w, false),
      call: async (_as, w, ctx) => fetchStatus(`${server.url}/api/receive/${w.file}?token=${encodeURIComponent(ctx.token)}`),
    },
    {
      route: 'GET /api/specific/file',
      variant: 'the token one could get for the file of G',
      expect: [401, 401, 401, 401, 200, 200, 401, 401],
      setup: (as, w) => tokenFor(as, w, false),
      call: async (_as, w, ctx) =>
        fetchStatus(`${server.url}/api/specific/file?token=${encodeURIComponent(ctx.token)}&path=${encodeURIComponent(w.file)}`),
    },
    {
      route: 'GET /api/receive/admin/*',
      variant: 'the admin token one could get',
      expect: [401, 401, 401, 401, 401, 401, 401, 200],
      setup: (as, w) => tokenFor(as, w, true),
      call: async (_as, w, ctx) => fetchStatus(`${server.url}/api/receive/admin/${w.file}?token=${encodeURIComponent(ctx.token)}`),
    },
    {
      route: 'GET /api/specific/admin/file',
      variant: 'the admin token one could get',
      expect: [401, 401, 401, 401, 401, 401, 401, 200],
      setup: (as, w) => tokenFor(as, w, true),
      call: async (_as, w, ctx) =>
        fetchStatus(`${server.url}/api/specific/admin/file?token=${encodeURIComponent(ctx.token)}&path=${encodeURIComponent(w.file)}`),
    },
    { route: 'GET /api/file/tree', expect: [401, 403, 403, 403, 403, 403, 403, 200], call: (as) => req(as, 'GET', '/file/tree') },

    // ── statistics ──
    { route: 'GET /api/stats/total', expect: [401, 403, 403, 403, 403, 403, 403, 200], call: (as) => req(as, 'GET', '/stats/total?days=7') },
    { route: 'GET /api/stats/managers', expect: [401, 403, 403, 403, 403, 403, 403, 200], call: (as) => req(as, 'GET', '/stats/managers?days=7') },

    // ── last: what takes things away from the world ──
    { route: 'DELETE /api/file/delete/all', expect: [401, 200, 200, 200, 200, 200, 200, 200], call: (as) => req(as, 'DELETE', '/file/delete/all') },
    {
      route: 'POST /api/auth/sign-out',
      variant: 'one’s own refresh token',
      expect: [204, 204, 204, 204, 204, 204, 204, 204],
      call: (as) => request(server, 'POST', '/auth/sign-out', as.person ? { token: as.person.refresh } : {}),
    },
  ];

  /** Ends every running call, so that each call of a row starts from none. */
  async function endCalls(): Promise<Ctx> {
    const running = await server.db.query<{ id: number }>('SELECT id FROM calls WHERE ended_at IS NULL');
    for (const call of running) await server.app.services.calls.end(call.id, 'ended');
    return {};
  }

  /** A fresh call in a chat, started by `starter`: its ids. */
  async function callIn(chatId: number, starter: Actor): Promise<Ctx> {
    await endCalls();
    const { call } = await server.app.services.calls.start(starter.person!.id, chatId);
    return { callId: call.id, messageId: call.message_id };
  }

  /** Media token the actor can actually obtain for the file of G (normal or admin); a dud when refused. */
  async function tokenFor(as: Actor, w: World, admin: boolean): Promise<Ctx> {
    if (!as.person) return { token: 'none' };
    const granted = await request(server, 'POST', '/file/tokens', { token: as.person.token, body: { paths: [w.file], ...(admin ? { admin: true } : {}) } });
    return { token: (granted.status === 200 && granted.body.tokens[w.file]) || 'none' };
  }

  /** Sends one text over the chat socket as the actor: 200 for an ack, else the error's status (401: no socket). */
  async function socketSend(as: Actor, frame: { chat_id: number; text: string }): Promise<{ status: number; body?: any }> {
    if (!as.person) return { status: await upgradeStatus(chatSocketUrl(server, '').replace(/token=$/, '')) };
    const reply = await sendFrame(server, as.person, frame);
    return reply.type === 'ack' ? { status: 200, body: reply } : { status: reply.status, body: reply };
  }

  it('notices a change when there is one (the snapshot the refusals are checked with)', async () => {
    const before = await snapshot(server);
    await server.db.query(`UPDATE users SET notes = notes || '.' WHERE id = $1`, [world.subject.id]);
    assert.notEqual(await snapshot(server), before);
    await server.db.query(`UPDATE users SET notes = left(notes, -1) WHERE id = $1`, [world.subject.id]);
    assert.equal(await snapshot(server), before);
  });

  it('covers every registered route', () => {
    const registered = new Set(server.app.routeList.map((route) => `${route.method} ${route.url}`));
    const covered = new Set(rows.map((row) => row.route));
    assert.deepEqual([...registered].filter((route) => !covered.has(route)), [], 'routes missing from the matrix');
    assert.deepEqual([...covered].filter((route) => !registered.has(route)), [], 'rows for routes that do not exist');
  });

  it('answers every route with the expected status for each caller; refused changes change nothing', async () => {
    const failures: string[] = [];
    for (const row of rows) {
      const actual: number[] = [];
      for (const name of ACTORS) {
        const as = world.actors[name];
        const ctx = row.setup ? await row.setup(as, world) : {};
        const mutating = row.mutating ?? !row.route.startsWith('GET ');
        const expected = row.expect[ACTORS.indexOf(name)]!;
        const before = mutating && expected >= 400 ? await snapshot(server) : null;
        const result = await row.call(as, world, ctx);
        actual.push(result.status);
        if (result.status !== expected) {
          failures.push(`${row.route}${row.variant ? ` (${row.variant})` : ''} as ${name}: ${result.status} ≠ ${expected} ${JSON.stringify(result.body ?? '').slice(0, 160)}`);
          continue;
        }
        if (before !== null) {
          const after = await snapshot(server);
          if (after !== before) failures.push(`${row.route}${row.variant ? ` (${row.variant})` : ''} as ${name}: refused (${result.status}) but something changed`);
        }
        row.check?.(as, result, world);
      }
    }
    assert.deepEqual(failures, []);
  });
});

/** A refused read gives nothing away: the answer is an error and nothing else. */
function noDataWhenRefused(_as: Actor, result: HttpResult | { status: number; body?: any }): void {
  if (result.status >= 400) assert.deepEqual(Object.keys(result.body).sort(), ['error', 'message']);
}

/** A group of `owner` with `members` (secret when asked); its id. */
async function group(server: TestServer, owner: Person, members: Person[], secret = false): Promise<number> {
  const created = await request(server, 'POST', '/chat/create', {
    token: owner.token,
    body: { chat_type: 'group', name: secret ? 'Secret' : 'Group', participants: members.map((member) => member.id), ...(secret ? { is_secret: true } : {}) },
  });
  if (created.status !== 201) throw new Error(`chat/create ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.chat.id;
}

async function buildWorld(server: TestServer, topPhone: string): Promise<World> {
  const top = await signUp(server, { phone: topPhone, name: 'Top' });
  const set = await request(server, 'POST', '/user/password', { token: top.token, body: STAFF_PASSWORDS });
  assert.equal(set.status, 200);
  const [user, nonMember, owner, member, subject] = await Promise.all(
    ['User', 'Stranger', 'Owner', 'Member', 'Subject'].map((name) => signUp(server, { name })),
  );
  const manager = await createManager(server, top, 'Manager');
  const admin = await createManager(server, top, 'Admin');
  assert.equal((await request(server, 'PUT', '/user/role', { token: top.token, body: { user_id: admin.id, role_id: 2 } })).status, 200);
  await signInAgain(server, admin); // the role change ended the sessions it had

  const userInviteCode = (await request(server, 'GET', '/user', { token: user!.token })).body.user.invite_link.split('/').pop();
  const followed = await request(server, 'POST', `/user/link?code=${userInviteCode}`);
  assert.equal(followed.status, 200);
  const guest: Person = { id: 0, phone: '', token: followed.body.jwt_info.access_token, refresh: followed.body.jwt_info.refresh_token };
  guest.id = (await request(server, 'GET', '/user', { token: guest.token })).body.user.id;

  const P = await privateChat(server, member!, owner!); // member has owner as a contact
  const G = await group(server, owner!, [member!]);
  const J = await group(server, owner!, [member!]);
  const joinCode = (await request(server, 'GET', `/chat/${J}`, { token: owner!.token })).body.chat.invite_code;
  const S = await group(server, manager, [member!], true);
  const file = (await upload(server, member!)).body.file.path;
  const sent = await sendFrame(server, member!, { chat_id: G, message_type: 'image', file_path: file, text: 'hello' });
  assert.equal(sent.type, 'ack');
  assert.equal((await sendText(server, member!, S, 'psst')).type, 'ack');

  const actor = (name: ActorName, person: Person | null, passwords?: { password: string; extra_password: string }): Actor => ({
    name,
    person,
    ...(passwords ?? {}),
  });
  return {
    top,
    subject: subject!,
    G,
    J,
    joinCode,
    S,
    P,
    file,
    userInviteCode,
    actors: {
      anon: actor('anon', null),
      guest: actor('guest', guest),
      user: actor('user', user!),
      nonMember: actor('nonMember', nonMember!),
      owner: actor('owner', owner!),
      member: actor('member', member!),
      manager: actor('manager', manager, manager),
      admin: actor('admin', admin, admin),
    },
  };
}

/**
 * Everything a refused call must leave as it was: people, chats and members, messages, contacts and invitations,
 * files (rows and bytes), calls, logins, sign-ins in progress, and every event log. (Code and password tries and
 * guest sign-ups are bookkeeping of the refusals themselves and are left out.)
 */
async function snapshot(server: TestServer): Promise<string> {
  const [rows] = await server.db.query(
    `SELECT (SELECT json_agg(t ORDER BY t.id) FROM users t) AS users,
            (SELECT json_agg(t ORDER BY t.id) FROM chats t) AS chats,
            (SELECT json_agg(t ORDER BY t.chat_id, t.user_id) FROM chat_members t) AS members,
            (SELECT json_agg(t ORDER BY t.id) FROM messages t) AS messages,
            (SELECT json_agg(t ORDER BY t.owner_id, t.user_id) FROM contacts t) AS contacts,
            (SELECT json_agg(t ORDER BY t.owner_id, t.phone) FROM contact_invites t) AS invites,
            (SELECT json_agg(t ORDER BY t.id) FROM files t) AS files,
            (SELECT json_agg(t ORDER BY t.id) FROM calls t) AS calls,
            (SELECT json_agg(t ORDER BY t.call_id, t.user_id) FROM call_participants t) AS call_participants,
            (SELECT json_agg(t ORDER BY t.id) FROM call_recordings t) AS call_recordings,
            (SELECT json_agg(t ORDER BY t.id) FROM refresh_tokens t) AS logins,
            (SELECT json_agg(t ORDER BY t.id) FROM sign_in_tickets t) AS tickets,
            (SELECT json_agg(json_build_array(t.user_id, t.seq, t.event_type) ORDER BY t.user_id, t.seq) FROM user_events t) AS events`,
  );
  const entries = await readdir(server.config.filesDir, { recursive: true });
  return JSON.stringify(rows) + JSON.stringify(entries.sort());
}

/** The start of a WebM file (its EBML header), enough to be stored as audio/webm. */
function webmBytes(): Buffer {
  return Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(60, 1)]);
}

/** An HTTP GET's status (the body is read and dropped). */
async function fetchStatus(url: string): Promise<{ status: number }> {
  const response = await fetch(url);
  await response.arrayBuffer();
  return { status: response.status };
}

/** The outcome of a WebSocket upgrade: 101 when it opened (then closed at once), else the refusal's status. */
function upgradeStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once('open', () => {
      socket.close();
      resolve(101);
    });
    socket.once('unexpected-response', (req, res) => {
      req.destroy();
      resolve(res.statusCode ?? 0);
    });
    socket.once('error', reject);
  });
}
