import { createSigner, createVerifier, TokenError } from 'fast-jwt';

const ALGORITHM = 'HS256';

/** What every token of ours carries besides its own claims: who it is for, until when (seconds since the epoch). */
export interface TokenBasics {
  subject: number;
  audience: string;
  issuedAt: number;
  expiresAt: number;
}

/**
 * HS256 tokens of one type (`typ`) and issuer, each type with a key of its own: the signing and checking that the
 * access, media and meeting tokens share.
 *
 * fast-jwt signs and verifies with node:crypto's HMAC, synchronously. jose, used before, goes through WebCrypto: a
 * hop to libuv's thread pool and back per token, which a restarted server pays for every reconnecting socket (800
 * access tokens on one core: 126 ms cold and 46–210 ms warm through jose, 57 and 24–62 ms through fast-jwt,
 * 2026-11-28; 218 ms of the main thread's samples in the profile of a restart with 400 sockets). Expiry is checked
 * against the caller's clock, so tests can move time.
 */
export class Hs256Tokens {
  private readonly sign: (payload: Record<string, unknown>) => string;
  private readonly verifiers = new Map<string, (token: string) => Record<string, unknown>>();

  constructor(
    private readonly secret: Uint8Array,
    private readonly type: string,
    private readonly issuer: string,
  ) {
    this.sign = createSigner({ key: Buffer.from(secret), algorithm: ALGORITHM, header: { alg: ALGORITHM, typ: type } });
  }

  issue(basics: TokenBasics, claims: Record<string, unknown>): string {
    return this.sign({
      ...claims,
      sub: String(basics.subject),
      iss: this.issuer,
      aud: basics.audience,
      iat: basics.issuedAt,
      exp: basics.expiresAt,
    });
  }

  /**
   * The payload of a token of this type, issuer and `audience` signed with this key and not expired at `nowMs`, with
   * every claim of `required`; null for anything else (forged, expired, another type or audience, not a JWT).
   */
  verify(token: string, audience: string, required: string[], nowMs: number): Record<string, unknown> | null {
    try {
      const payload = this.verifierFor(audience)(token);
      if (required.some((claim) => payload[claim] === undefined)) return null;
      if (typeof payload.exp !== 'number' || payload.exp * 1000 <= nowMs) return null;
      if (typeof payload.nbf === 'number' && payload.nbf * 1000 > nowMs) return null;
      return payload;
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
        requiredClaims: ['sub', 'exp'],
        // Expiry and not-before are checked against the caller's clock above.
        ignoreExpiration: true,
        ignoreNotBefore: true,
      }) as (token: string) => Record<string, unknown>;
      this.verifiers.set(audience, verifier);
    }
    return verifier;
  }
}
