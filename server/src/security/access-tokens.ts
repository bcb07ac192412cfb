import { LRUCache } from 'lru-cache';
import { Hs256Tokens } from './hs256-tokens.js';

const ISSUER = 'messenger';
const AUDIENCE = 'messenger-api';
// RFC 9068's type for access tokens; a token of any other type (media, meeting…) is refused as an access token.
const ACCESS_TYPE = 'at+jwt';
/** Tokens whose signature was checked, remembered by their exact text (a person's client reuses one for minutes). */
const VERIFIED_TOKENS = 20_000;

export interface AccessClaims {
  userId: number;
  role: number;
  /** Expiry, seconds since the epoch. */
  exp: number;
  /** The person's session generation when the token was issued: an older one than theirs now is refused. */
  generation: number;
  /** The login (refresh-token family) the token was issued to: what a browser's push subscription belongs to. */
  login?: string;
}

export class AccessTokens {
  /**
   * The same text always verifies the same way, so a token's claims are kept until it expires (a check of its
   * signature costs 20–120 µs; a lookup here, less than one); whether its session still holds is checked on every
   * request by the caller (the database read in the auth hook), so this never delays a revocation.
   */
  private readonly verified = new LRUCache<string, AccessClaims>({ max: VERIFIED_TOKENS });

  private readonly tokens: Hs256Tokens;

  /** `now` (milliseconds since the epoch) is the clock for issuing and expiry; tests pass their own. */
  constructor(
    secret: Uint8Array,
    private readonly ttlSeconds: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = new Hs256Tokens(secret, ACCESS_TYPE, ISSUER, [], now);
  }

  async issue(userId: number, role: number, generation: number, login?: string): Promise<string> {
    return this.tokens.issue(
      { subject: userId, audience: AUDIENCE, ttlSeconds: this.ttlSeconds },
      { role, gen: generation, ...(login === undefined ? {} : { sid: login }) },
    );
  }

  /** Returns the claims of a valid access token, or null for anything else (expired, forged, wrong type…). */
  async verify(token: string): Promise<AccessClaims | null> {
    const known = this.verified.get(token);
    if (known) {
      if (known.exp * 1000 > this.now()) return known;
      this.verified.delete(token);
      return null;
    }
    const claims = this.check(token);
    if (claims) this.verified.set(token, claims);
    return claims;
  }

  private check(token: string): AccessClaims | null {
    const payload = this.tokens.verify(token, AUDIENCE);
    if (!payload) return null;
    const userId = Number(payload.sub);
    const role = typeof payload.role === 'number' ? payload.role : 0;
    const generation = payload.gen;
    if (!Number.isSafeInteger(userId) || userId <= 0 || !Number.isSafeInteger(generation)) return null;
    const login = typeof payload.sid === 'string' ? { login: payload.sid } : {};
    return { userId, role, exp: payload.exp, generation: generation as number, ...login };
  }
}
