import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import type { Db } from '../src/db/index.js';
import { buildApp } from '../src/app.js';
import { loggerOptions } from '../src/logger.js';
import type { App } from '../src/http/types.js';
import { SocketProbe, codeFor, flowUrl, randomPhone, request, signUp } from './helpers/client.js';
import { STAFF_PASSWORDS, createManager, makeStaff } from './helpers/staff.js';
import { openMemoryPglite, type TestServer } from './helpers/server.js';

describe('logs', () => {
  const lines: string[] = [];
  let server: TestServer;
  let app: App;
  let db: Db;

  before(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const config = loadConfig({ NODE_ENV: 'test', CLIENT_ROOT: '/nonexistent', OTP_PER_IP_PER_HOUR: '1000', PASSWORD_HASH_COST: '10' });
    db = await openMemoryPglite();
    // The same options main.ts uses, writing to memory.
    app = await buildApp(config, db, { logger: pino(loggerOptions('info') as pino.LoggerOptions, sink) });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const port = (app.server.address() as { port: number }).port;
    const url = `http://127.0.0.1:${port}`;
    server = { url, wsUrl: url.replace('http', 'ws'), app, db, config, restart: async () => undefined, close: async () => undefined };
  });
  after(async () => {
    await app.close();
    await db.close();
  });

  it('never contain access tokens, refresh tokens or query-string tokens', async () => {
    const person = await signUp(server);
    await request(server, 'GET', '/user', { token: person.token });
    const refreshed = await request(server, 'POST', '/auth/refresh', { token: person.refresh });
    const flow = await SocketProbe.open(flowUrl(server, person.token));
    await flow.until((frames) => frames.length > 0);
    flow.close();
    await request(server, 'GET', `/user/find?query=x&token=${person.token}`, { token: person.token });
    // Media URLs carry their token in the query too.
    const path = '2024/01/0123456789abcdef0123456789abcdef.png';
    const media = await app.services.mediaTokens.issue(person.id, path);
    await fetch(`${server.url}/api/receive/${path}?token=${media}`);
    await fetch(`${server.url}/api/specific/file?token=${media}&path=${encodeURIComponent(path)}`);
    const all = lines.join('');
    assert.ok(all.includes('/api/receive/'), 'media requests are logged');
    assert.ok(!all.includes(media), 'a media token reached the log');
    assert.ok(all.includes('/api/user/flow'), 'requests are logged');
    for (const secret of [person.token, person.refresh, refreshed.body.jwt_info.refresh_token, refreshed.body.jwt_info.access_token]) {
      assert.ok(!all.includes(secret), 'a token reached the log');
    }
    assert.ok(all.includes('[redacted]'));
  });

  it('never contain passwords, generated credentials or sign-in tickets', async () => {
    const admin = await signUp(server);
    await makeStaff(server, admin, 2);
    const manager = await createManager(server, admin);
    const first = await request(server, 'POST', '/auth/sign-in-manager', { body: { phone: manager.phone, password: manager.password } });
    await request(server, 'POST', '/auth/sign-in-manager-extra', { body: { phone: manager.phone, password: 'a wrong one', ticket: first.body.ticket } });
    await request(server, 'POST', '/auth/sign-in-manager', { body: { phone: manager.phone, password: 'another wrong one' } });
    const all = lines.join('');
    assert.ok(all.includes('/api/auth/sign-in-manager'), 'the sign-ins are logged');
    for (const secret of [STAFF_PASSWORDS.password, STAFF_PASSWORDS.extra_password, manager.password, manager.extra_password, first.body.ticket, 'a wrong one', 'another wrong one']) {
      assert.ok(!all.includes(secret), 'a password or ticket reached the log');
    }
  });

  it('contain sign-in codes only as the dev provider’s own line', async () => {
    const phone = randomPhone();
    await request(server, 'POST', '/auth/send-code', { body: { phone } });
    const code = await codeFor(server, phone);
    await request(server, 'POST', '/auth/sign-in', { body: { phone, code } });
    // As a JSON value anywhere (a body, a query) it would be quoted; the dev line prints it inside its message.
    assert.deepEqual(lines.filter((line) => line.includes(`"${code}"`) || line.includes(`code=${code}`)), []);
    assert.equal(lines.filter((line) => line.includes('[dev sms]') && line.includes(`${phone}: Your Messenger code: ${code}`)).length, 1);
  });
});
