import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { SignJWT } from 'jose';
import { startServer, type TestServer } from './helpers/server.js';
import { codeFor, randomPhone, request, signUp } from './helpers/client.js';
import { loadConfig, ConfigError } from '../src/config.js';
import { HttpSmsProvider } from '../src/modules/auth/sms/http.js';
import { SmsDeliveryError } from '../src/modules/auth/sms/provider.js';

describe('sign-in by phone', () => {
  let server: TestServer;
  const adminPhone = randomPhone();
  before(async () => {
    server = await startServer({ ADMIN_PHONES: adminPhone, REFRESH_GRACE_SECONDS: '1' });
  });
  after(() => server.close());

  it('refuses numbers that are not valid E.164 with a clear 400', async () => {
    for (const phone of ['12345', '+1555', '+4915112345678901234567890', 'hello']) {
      const response = await request(server, 'POST', '/auth/send-code', { body: { phone } });
      assert.equal(response.status, 400, phone);
      assert.ok(response.body.message, 'a message says why');
    }
    const missing = await request(server, 'POST', '/auth/send-code', { body: {} });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error, 'validation');
  });

  it('sends a 6-digit code, tells whether the phone is a manager, and spaces resends with 429 + Retry-After', async () => {
    const phone = randomPhone();
    const first = await request(server, 'POST', '/auth/send-code', { body: { phone } });
    assert.equal(first.status, 200);
    assert.equal(first.body.is_manager, false);
    assert.match(await codeFor(server, phone), /^\d{6}$/);
    const again = await request(server, 'POST', '/auth/send-code', { body: { phone } });
    assert.equal(again.status, 429);
    const retryAfter = Number(again.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= 60, `Retry-After ${retryAfter}`);
  });

  it('keeps only a hash of the code', async () => {
    const phone = randomPhone();
    await request(server, 'POST', '/auth/send-code', { body: { phone } });
    const code = await codeFor(server, phone);
    const rows = await server.db.query<{ code_hash: string }>('SELECT code_hash FROM otp_codes WHERE phone = $1', [phone]);
    assert.equal(rows.length, 1);
    assert.ok(!rows[0]!.code_hash.includes(code));
    assert.equal(rows[0]!.code_hash.length, 64);
  });

  it('signs a new person in, creates their account and marks it new', async () => {
    const phone = randomPhone();
    await request(server, 'POST', '/auth/send-code', { body: { phone } });
    const code = await codeFor(server, phone);
    const signedIn = await request(server, 'POST', '/auth/sign-in', { body: { phone, code } });
    assert.equal(signedIn.status, 200);
    assert.equal(signedIn.body.is_new_user, true);
    assert.ok(signedIn.body.jwt_info.access_token);
    assert.ok(signedIn.body.jwt_info.refresh_token);
    const me = await request(server, 'GET', '/user', { token: signedIn.body.jwt_info.access_token });
    assert.equal(me.status, 200);
    assert.equal(me.body.user.phone, phone);
    assert.equal(me.body.user.role, 0);
    assert.match(me.body.user.invite_link, /\/link\/[A-Za-z0-9]{10}$/);
  });

  it('uses a code once', async () => {
    const phone = randomPhone();
    await request(server, 'POST', '/auth/send-code', { body: { phone } });
    const code = await codeFor(server, phone);
    assert.equal((await request(server, 'POST', '/auth/sign-in', { body: { phone, code } })).status, 200);
    const reused = await request(server, 'POST', '/auth/sign-in', { body: { phone, code } });
    assert.equal(reused.status, 400);
    assert.equal(reused.body.error, 'code_expired');
  });

  it('refuses an expired code', async () => {
    const phone = randomPhone();
    await request(server, 'POST', '/auth/send-code', { body: { phone } });
    const code = await codeFor(server, phone);
    await server.db.query(`UPDATE otp_codes SET expires_at = now() - interval '1 second' WHERE phone = $1`, [phone]);
    const late = await request(server, 'POST', '/auth/sign-in', { body: { phone, code } });
    assert.equal(late.status, 400);
    assert.equal(late.body.error, 'code_expired');
  });

  it('allows 5 wrong tries per code, counted atomically even when 20 guesses race', async () => {
    const phone = randomPhone();
    await request(server, 'POST', '/auth/send-code', { body: { phone } });
    const code = await codeFor(server, phone);
    const wrong = code === '000000' ? '111111' : '000000';
    const guesses = await Promise.all(
      Array.from({ length: 20 }, () => request(server, 'POST', '/auth/sign-in', { body: { phone, code: wrong } })),
    );
    const statuses = guesses.map((guess) => guess.status);
    assert.equal(statuses.filter((status) => status === 400).length, 5, `statuses ${statuses}`);
    assert.equal(statuses.filter((status) => status === 429).length, 15);
    // The right code no longer helps: that code is spent.
    const right = await request(server, 'POST', '/auth/sign-in', { body: { phone, code } });
    assert.equal(right.status, 429);
    assert.equal(right.body.error, 'code_attempts_exceeded');
  });

  it('caps codes per address, and a forged X-Forwarded-For does not get around it', async () => {
    const capped = await startServer({ OTP_PER_IP_PER_HOUR: '2' });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i += 1) {
        const response = await request(capped, 'POST', '/auth/send-code', {
          body: { phone: randomPhone() },
          headers: { 'x-forwarded-for': `203.0.113.${i}` },
        });
        statuses.push(response.status);
      }
      assert.deepEqual(statuses, [200, 200, 429]);
    } finally {
      await capped.close();
    }
  });

  it('behind a proxy (TRUST_PROXY), counts the address the proxy saw, not what the client wrote before it', async () => {
    const capped = await startServer({ OTP_PER_IP_PER_HOUR: '2', TRUST_PROXY: 'true' });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i += 1) {
        // The client's own X-Forwarded-For, then the address the one proxy appended.
        const response = await request(capped, 'POST', '/auth/send-code', {
          body: { phone: randomPhone() },
          headers: { 'x-forwarded-for': `203.0.113.${i}, 198.51.100.7` },
        });
        statuses.push(response.status);
      }
      assert.deepEqual(statuses, [200, 200, 429]);
      // Another address behind the same proxy has its own allowance.
      const other = await request(capped, 'POST', '/auth/send-code', { body: { phone: randomPhone() }, headers: { 'x-forwarded-for': '198.51.100.8' } });
      assert.equal(other.status, 200);
    } finally {
      await capped.close();
    }
  });

  it('rejects malformed codes before looking', async () => {
    const response = await request(server, 'POST', '/auth/sign-in', { body: { phone: randomPhone(), code: '12ab56' } });
    assert.equal(response.status, 400);
  });

  it('gives the top admin role to phones in ADMIN_PHONES', async () => {
    const admin = await signUp(server, { phone: adminPhone });
    const me = await request(server, 'GET', '/user', { token: admin.token });
    assert.equal(me.body.user.role, 3);
    const again = await request(server, 'POST', '/auth/send-code', { body: { phone: adminPhone } });
    assert.ok(again.status === 429 || again.body.is_manager === true);
  });

  it('records who invited a new person through ?code=', async () => {
    const inviter = await signUp(server);
    const inviteCode = (await request(server, 'GET', '/user', { token: inviter.token })).body.user.invite_link.split('/').pop();
    const invited = await signUp(server, { inviteCode });
    const [row] = await server.db.query<{ invited_by: number }>('SELECT invited_by FROM users WHERE id = $1', [invited.id]);
    assert.equal(row!.invited_by, inviter.id);
  });
});

describe('tokens', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ REFRESH_GRACE_SECONDS: '1' });
  });
  after(() => server.close());

  it('rotates the refresh token on every use', async () => {
    const person = await signUp(server);
    const first = await request(server, 'POST', '/auth/refresh', { token: person.refresh });
    assert.equal(first.status, 200);
    const next = first.body.jwt_info.refresh_token;
    assert.notEqual(next, person.refresh);
    const second = await request(server, 'POST', '/auth/refresh', { token: next });
    assert.equal(second.status, 200);
    const me = await request(server, 'GET', '/user', { token: second.body.jwt_info.access_token });
    assert.equal(me.body.user.id, person.id);
  });

  it('lets two tabs refresh with the same token at once', async () => {
    const person = await signUp(server);
    const [a, b] = await Promise.all([
      request(server, 'POST', '/auth/refresh', { token: person.refresh }),
      request(server, 'POST', '/auth/refresh', { token: person.refresh }),
    ]);
    assert.equal(a.status, 200);
    assert.equal(b.status, 200);
    assert.equal((await request(server, 'POST', '/auth/refresh', { token: a.body.jwt_info.refresh_token })).status, 200);
    assert.equal((await request(server, 'POST', '/auth/refresh', { token: b.body.jwt_info.refresh_token })).status, 200);
  });

  it('revokes the whole login when a rotated token is reused after the grace period', async () => {
    const person = await signUp(server);
    const rotated = await request(server, 'POST', '/auth/refresh', { token: person.refresh });
    const current = rotated.body.jwt_info.refresh_token;
    await new Promise((resolve) => setTimeout(resolve, 1300));
    const replay = await request(server, 'POST', '/auth/refresh', { token: person.refresh });
    assert.equal(replay.status, 401);
    assert.equal(replay.body.error, 'refresh_token_reused');
    const victim = await request(server, 'POST', '/auth/refresh', { token: current });
    assert.equal(victim.status, 401, 'the legitimate holder is signed out too');
  });

  it('refuses anything but a valid access token as a bearer', async () => {
    const person = await signUp(server);
    const none = `${Buffer.from('{"alg":"none","typ":"at+jwt"}').toString('base64url')}.${Buffer.from(
      JSON.stringify({ sub: String(person.id), exp: Math.floor(Date.now() / 1000) + 60, aud: 'messenger-api', iss: 'messenger' }),
    ).toString('base64url')}.`;
    const forged = await new SignJWT({ role: 3 })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .setSubject(String(person.id))
      .setIssuer('messenger')
      .setAudience('messenger-api')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('x'.repeat(32)));
    for (const token of [person.refresh, none, forged, 'garbage', '']) {
      const response = await request(server, 'GET', '/user', { token });
      assert.equal(response.status, 401, `token ${token.slice(0, 20)}`);
      assert.ok(response.body.message);
    }
    assert.equal((await request(server, 'GET', '/user')).status, 401);
    assert.equal((await request(server, 'POST', '/auth/refresh', { token: person.token })).status, 401);
  });

  it('ignores fields a person may not set on themself', async () => {
    const person = await signUp(server);
    const attempt = await request(server, 'PUT', '/user/edit', { token: person.token, body: { name: 'Eve', role: 3 } });
    assert.equal(attempt.status, 400);
    const me = await request(server, 'GET', '/user', { token: person.token });
    assert.equal(me.body.user.role, 0);
    assert.equal(me.body.user.name, '');
  });

  it('sets name and username, and keeps usernames unique regardless of case', async () => {
    const a = await signUp(server);
    const b = await signUp(server);
    const named = await request(server, 'PUT', '/user/edit', { token: a.token, body: { name: ' Anna ', username: '@Anna_1' } });
    assert.equal(named.status, 200);
    assert.equal(named.body.user.name, 'Anna');
    assert.equal(named.body.user.username, 'Anna_1');
    const taken = await request(server, 'PUT', '/user/edit', { token: b.token, body: { username: 'anna_1' } });
    assert.equal(taken.status, 409);
    const bad = await request(server, 'PUT', '/user/edit', { token: b.token, body: { username: 'a b' } });
    assert.equal(bad.status, 400);
  });
});

describe('SMS providers', () => {
  it('the server refuses to start with the dev provider in production', () => {
    assert.throws(() => loadConfig({ NODE_ENV: 'production' }), ConfigError);
    assert.doesNotThrow(() => loadConfig({ NODE_ENV: 'production', SMS_HTTP_URL: 'http://127.0.0.1:9/sms', PUBLIC_URL: 'https://chat.example' }));
    // Invitation texts go to real phones: their link must come from configuration, never from a Host header.
    assert.throws(() => loadConfig({ SMS_HTTP_URL: 'http://127.0.0.1:9/sms' }), /PUBLIC_URL/);
  });

  it('the dev outbox route exists only with the dev provider', async () => {
    const server = await startServer({ SMS_HTTP_URL: 'http://127.0.0.1:9/sms', PUBLIC_URL: 'https://chat.example' });
    try {
      assert.equal((await request(server, 'GET', '/dev/sms?phone=%2B4915112345678')).status, 404);
      const refused = await request(server, 'POST', '/auth/send-code', { body: { phone: randomPhone() } });
      assert.equal(refused.status, 502, 'an unreachable gateway is a clear error');
    } finally {
      await server.close();
    }
  });

  it('the HTTP provider posts to the gateway, with its token, and fails clearly on errors', async () => {
    const received: Array<{ auth: string | undefined; body: any }> = [];
    let status = 200;
    const gateway = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push({ auth: req.headers.authorization, body: JSON.parse(body) });
        res.writeHead(status).end('{}');
      });
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    const port = (gateway.address() as { port: number }).port;
    try {
      const provider = new HttpSmsProvider({ url: `http://127.0.0.1:${port}/sms`, token: 'secret-token', sender: 'Msgr' });
      await provider.send('+4915112345678', 'Your code: 123456');
      assert.deepEqual(received[0], {
        auth: 'Bearer secret-token',
        body: { to: '+4915112345678', from: 'Msgr', text: 'Your code: 123456' },
      });
      status = 500;
      await assert.rejects(provider.send('+4915112345678', 'x'), SmsDeliveryError);

      // End to end: a server configured with this gateway texts the code there.
      status = 200;
      const server = await startServer({
        SMS_HTTP_URL: `http://127.0.0.1:${port}/sms`,
        SMS_HTTP_TOKEN: 'secret-token',
        PUBLIC_URL: 'https://chat.example',
      });
      try {
        const phone = randomPhone();
        assert.equal((await request(server, 'POST', '/auth/send-code', { body: { phone } })).status, 200);
        const text: string = received.at(-1)!.body.text;
        const code = /\d{6}/.exec(text)![0];
        const signedIn = await request(server, 'POST', '/auth/sign-in', { body: { phone, code } });
        assert.equal(signedIn.status, 200);
      } finally {
        await server.close();
      }
    } finally {
      gateway.close();
    }
  });
});
