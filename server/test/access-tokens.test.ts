import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { SignJWT, jwtVerify } from 'jose';
import { AccessTokens } from '../src/security/access-tokens.js';
import { Hs256Tokens } from '../src/security/hs256-tokens.js';

describe('access tokens', () => {
  it('a token verified once stops being accepted when it expires', async () => {
    // A clock of the test's own: with the real one, a token issued in the last millisecond of a second could expire
    // before its first check (expiry is in whole seconds), which failed this test once in CI.
    let now = Date.UTC(2026, 0, 1, 12, 0, 0, 999);
    const tokens = new AccessTokens(randomBytes(32), 60, () => now);
    const token = await tokens.issue(7, 0, 3);
    const expiry = Math.floor(now / 1000) + 60;
    assert.deepEqual(await tokens.verify(token), { userId: 7, role: 0, exp: expiry, generation: 3 });
    now = expiry * 1000 - 1;
    assert.ok(await tokens.verify(token), 'accepted until its last millisecond (from the remembered claims)');
    now = expiry * 1000;
    assert.equal(await tokens.verify(token), null, 'refused once expired, although its claims were remembered');
    assert.equal(await tokens.verify(token), null, 'and refused again, now checked afresh');
  });

  it('a remembered token does not vouch for an altered copy, nor for another key', async () => {
    const tokens = new AccessTokens(randomBytes(32), 600);
    const token = await tokens.issue(7, 0, 1);
    assert.ok(await tokens.verify(token));
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: '8' })).toString('base64url')}.${signature}`;
    assert.equal(await tokens.verify(forged), null);
    assert.equal(await tokens.verify(`${token}x`), null);
    assert.equal(await new AccessTokens(randomBytes(32), 600).verify(token), null);
  });
});

describe('HS256 tokens (fast-jwt), checked against jose, an implementation of their own', () => {
  const secret = randomBytes(32);
  let now = Date.now();
  const tokens = new Hs256Tokens(secret, 'at+jwt', 'messenger', [], () => now);
  const seconds = Math.floor(now / 1000);
  const basics = { subject: 7, audience: 'messenger-api', ttlSeconds: 60 };
  const joseToken = (header: { alg: string; typ: string }, claims: { iss?: string; aud?: string; exp?: number }, key: Uint8Array = secret) =>
    new SignJWT({ role: 1 })
      .setProtectedHeader(header)
      .setSubject('7')
      .setIssuer(claims.iss ?? 'messenger')
      .setAudience(claims.aud ?? 'messenger-api')
      .setExpirationTime(claims.exp ?? seconds + 60)
      .sign(key);

  it('what one signs, the other accepts', async () => {
    const ours = tokens.issue(basics, { role: 1 });
    const { payload, protectedHeader } = await jwtVerify(ours, secret, { typ: 'at+jwt', issuer: 'messenger', audience: 'messenger-api' });
    assert.deepEqual({ sub: payload.sub, role: payload.role, exp: payload.exp, alg: protectedHeader.alg }, { sub: '7', role: 1, exp: seconds + 60, alg: 'HS256' });
    const theirs = await joseToken({ alg: 'HS256', typ: 'at+jwt' }, {});
    assert.equal(tokens.verify(theirs, 'messenger-api')?.role, 1);
  });

  it('refuses another type, issuer, audience, algorithm or key, an unsigned token, a missing claim and expiry', async () => {
    const refused: Array<[string, string]> = [
      [await joseToken({ alg: 'HS256', typ: 'media+jwt' }, {}), 'another type'],
      [await joseToken({ alg: 'HS256', typ: 'at+jwt' }, { iss: 'someone' }), 'another issuer'],
      [await joseToken({ alg: 'HS256', typ: 'at+jwt' }, { aud: 'messenger-media' }), 'another audience'],
      [await joseToken({ alg: 'HS512', typ: 'at+jwt' }, {}), 'another algorithm'],
      [await joseToken({ alg: 'HS256', typ: 'at+jwt' }, {}, randomBytes(32)), 'another key'],
      [await joseToken({ alg: 'HS256', typ: 'at+jwt' }, { exp: seconds }), 'expired'],
      [tokens.issue(basics, { role: 1 }).split('.').slice(0, 2).join('.') + '.', 'unsigned'],
      [`${Buffer.from('{"alg":"none","typ":"at+jwt"}').toString('base64url')}.${tokens.issue(basics, {}).split('.')[1]}.`, 'alg none'],
      ['not.a.token', 'garbage'],
    ];
    for (const [token, what] of refused) assert.equal(tokens.verify(token, 'messenger-api'), null, what);
    const withPath = new Hs256Tokens(secret, 'at+jwt', 'messenger', ['path'], () => now);
    assert.equal(withPath.verify(tokens.issue(basics, {}), 'messenger-api'), null, 'a required claim missing');
    const token = tokens.issue(basics, {});
    now = (seconds + 60) * 1000;
    assert.equal(tokens.verify(token, 'messenger-api'), null, 'at its expiry');
    now = seconds * 1000;
  });
});
