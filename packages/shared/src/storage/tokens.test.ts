import { msUntilExpiry, tokenStorage } from './tokens';

const token = (claims: Record<string, number>) => `h.${btoa(JSON.stringify(claims)).replace(/=+$/, '')}.s`;

afterEach(() => tokenStorage.clear());

test("a token's life is counted by the server's clock, as its issue time shows it, not by a computer's clock that is behind", () => {
  const serverNow = Math.floor(Date.now() / 1000) + 600; // the server's clock is 10 minutes ahead of this browser's
  const fresh = token({ sub: 1, iat: serverNow, exp: serverNow + 900 });
  tokenStorage.save({ access_token: fresh, refresh_token: 'r' } as never);
  // 15 minutes left by the server's clock (not 25 by this one's).
  expect(msUntilExpiry(fresh)).toBeGreaterThan(890_000);
  expect(msUntilExpiry(fresh)).toBeLessThanOrEqual(900_000);
  // A token that the server already sees as expired is expired here too.
  expect(msUntilExpiry(token({ sub: 1, exp: serverNow - 60 }))).toBe(0);
});
