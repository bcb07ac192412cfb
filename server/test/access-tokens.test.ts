import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { AccessTokens } from '../src/security/access-tokens.js';

describe('access tokens', () => {
  it('a token verified once stops being accepted when it expires', async () => {
    const tokens = new AccessTokens(randomBytes(32), 1);
    const token = await tokens.issue(7, 0, 3);
    assert.deepEqual(await tokens.verify(token), { userId: 7, role: 0, exp: (await tokens.verify(token))!.exp, generation: 3 });
    const deadline = Date.now() + 10_000;
    while ((await tokens.verify(token)) !== null) {
      assert.ok(Date.now() < deadline, 'the token was still accepted long after its expiry');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(await tokens.verify(token), null);
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
