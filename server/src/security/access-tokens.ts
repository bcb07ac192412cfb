import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { hmacKey, type HmacKey } from './hmac-key.js';
import { LRUCache } from 'lru-cache';

const ISSUER = 'messenger';
const AUDIENCE = 'messenger-api';
// RFC 9068's type for access tokens; a token of any other type (media, meeting…) is refused as an access token.
const ACCESS_TYPE = 'at+jwt';
const ALGORITHM = 'HS256';
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
   * jose verifies through WebCrypto, a hop to libuv's thread pool and back on every request — a millisecond or more
   * of waiting on a busy 2-core machine, on the path of every API call. The same text always verifies the same way,
   * so a token's claims are kept until it expires; whether its session still holds is checked on every request by
   * the caller (the database read in the auth hook), so this never delays a revocation.
   */
  private readonly verified = new LRUCache<string, AccessClaims>({ max: VERIFIED_TOKENS });

  private readonly key: Promise<HmacKey>;

  /** `now` (milliseconds since the epoch) is the clock for issuing and expiry; tests pass their own. */
  constructor(
    secret: Uint8Array,
    private readonly ttlSeconds: number,
    private readonly now: () => number = Date.now,
  ) {
    this.key = hmacKey(secret);
  }

  async issue(userId: number, role: number, generation: number, login?: string): Promise<string> {
    const issuedAt = Math.floor(this.now() / 1000);
    return new SignJWT({ role, gen: generation, ...(login === undefined ? {} : { sid: login }) })
      .setProtectedHeader({ alg: ALGORITHM, typ: ACCESS_TYPE })
      .setSubject(String(userId))
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + this.ttlSeconds)
      .sign(await this.key);
  }

  /** Returns the claims of a valid access token, or null for anything else (expired, forged, wrong type…). */
  async verify(token: string): Promise<AccessClaims | null> {
    const known = this.verified.get(token);
    if (known) {
      if (known.exp * 1000 > this.now()) return known;
      this.verified.delete(token);
      return null;
    }
    const claims = await this.check(token);
    if (claims) this.verified.set(token, claims);
    return claims;
  }

  private async check(token: string): Promise<AccessClaims | null> {
    try {
      const { payload } = await jwtVerify(token, await this.key, {
        algorithms: [ALGORITHM],
        typ: ACCESS_TYPE,
        issuer: ISSUER,
        audience: AUDIENCE,
        requiredClaims: ['sub', 'exp'],
        currentDate: new Date(this.now()),
      });
      const userId = Number(payload.sub);
      const role = typeof payload.role === 'number' ? payload.role : 0;
      const generation = payload.gen;
      if (!Number.isSafeInteger(userId) || userId <= 0 || payload.exp === undefined || !Number.isSafeInteger(generation)) return null;
      const login = typeof payload.sid === 'string' ? { login: payload.sid } : {};
      return { userId, role, exp: payload.exp, generation: generation as number, ...login };
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return null;
      throw error;
    }
  }
}
