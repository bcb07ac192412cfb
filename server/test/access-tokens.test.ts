import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { AccessTokens } from '../src/security/access-tokens.js';

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
