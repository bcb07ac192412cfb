import { createSigner, createVerifier, TokenError } from 'fast-jwt';

const ALGORITHM = 'HS256';

/** Who a token is for and how long it lasts: `ttlSeconds` from now, or until `expiresAt` (seconds since the epoch). */
export interface TokenBasics {
  subject: number;
  audience: string;
  ttlSeconds: number;
  expiresAt?: number;
}

/**
 * HS256 tokens of one type (`typ`) and issuer, each type with a key of its own: the signing and checking that the
 * access, media and meeting tokens share.
 *
 * fast-jwt signs and verifies with node:crypto's HMAC, synchronously. jose, used before, goes through WebCrypto: a
 * hop to libuv's thread pool and back per token, which a restarted server pays for every reconnecting socket (800
 * access tokens on one core: 126 ms cold and 46–210 ms warm through jose, 57 and 24–62 ms through fast-jwt,
 * 2026-11-28; 218 ms of the main thread's samples in the profile of a restart with 400 sockets). Issuing and expiry
 * use `now` (milliseconds since the epoch), so tests can move time.
 */
export class Hs256Tokens {
  private readonly sign: (payload: Record<string, unknown>) => string;
  private readonly verifiers = new Map<string, (token: string) => Record<string, unknown>>();

  constructor(
    private readonly secret: Uint8Array,
    private readonly type: string,
    private readonly issuer: string,
    /** Claims of this kind's own that a token must carry, besides `sub` and `exp`. */
    private readonly requiredClaims: string[] = [],
    private readonly now: () => number = Date.now,
  ) {
    this.sign = createSigner({ key: Buffer.from(secret), algorithm: ALGORITHM, header: { alg: ALGORITHM, typ: type } });
  }

  issue(basics: TokenBasics, claims: Record<string, unknown>): string {
    const issuedAt = Math.floor(this.now() / 1000);
    return this.sign({
      ...claims,
      sub: String(basics.subject),
      iss: this.issuer,
      aud: basics.audience,
      iat: issuedAt,
      exp: basics.expiresAt ?? issuedAt + basics.ttlSeconds,
    });
  }

  /**
   * The payload of a token of this type, issuer and `audience` signed with this key, not expired, with every
   * required claim (`exp` a number); null for anything else (forged, expired, another type or audience, not a JWT).
   */
  verify(token: string, audience: string): (Record<string, unknown> & { exp: number }) | null {
    try {
      const payload = this.verifierFor(audience)(token);
      const nowMs = this.now();
      if (typeof payload.exp !== 'number' || payload.exp * 1000 <= nowMs) return null;
      if (typeof payload.nbf === 'number' && payload.nbf * 1000 > nowMs) return null;
      return payload as Record<string, unknown> & { exp: number };
    } catch (error) {
      if (error instanceof TokenError) return null;
      throw error;
    }
  }

  private verifierFor(audience: string): (token: string) => Record<string, unknown> {
    let verifier = this.verifiers.get(audience);
    if (!verifier) {
      verifier = createVerifier({
        key: Buffer.from(this.secret),
        algorithms: [ALGORITHM],
        checkTyp: this.type,
        allowedIss: this.issuer,
        allowedAud: audience,
        requiredClaims: ['sub', 'exp', ...this.requiredClaims],
        // Expiry and not-before are checked against `now` above.
        ignoreExpiration: true,
        ignoreNotBefore: true,
      }) as (token: string) => Record<string, unknown>;
      this.verifiers.set(audience, verifier);
    }
    return verifier;
  }
}
