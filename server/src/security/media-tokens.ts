import { Hs256Tokens } from './hs256-tokens.js';

const ISSUER = 'messenger';
const AUDIENCE = 'messenger-media';
/**
 * Admin media tokens (`/receive/admin/…`, `/specific/admin/file`) have an audience of their own: a normal token
 * never opens an admin URL, and an admin token never a normal one.
 */
const ADMIN_AUDIENCE = 'messenger-media-admin';
// Its own type, audience and key: a media token is never an access token, and an access token never a media token.
const MEDIA_TYPE = 'media+jwt';
/** A media URL works for an hour (docs/api.md, `POST /file/tokens`). */
export const MEDIA_TOKEN_TTL_SECONDS = 3600;

export interface MediaClaims {
  userId: number;
  path: string;
}

/** `user`: the normal file URLs, checked against what the user may see; `admin`: the admin file URLs. */
export type MediaScope = 'user' | 'admin';

/**
 * Media tokens: the key of a `/receive/{path}` or `/specific/file` URL. Each is bound to one user and one file
 * path, so a URL that leaks (a log, a shared link) opens that one file for at most an hour, and only while its
 * user may still see it.
 */
export class MediaTokens {
  private readonly tokens: Hs256Tokens;

  constructor(secret: Uint8Array) {
    this.tokens = new Hs256Tokens(secret, MEDIA_TYPE, ISSUER, ['path']);
  }

  /** `expiresAt` (seconds since the epoch) exists for tests of expired tokens. */
  async issue(userId: number, path: string, expiresAt?: number, scope: MediaScope = 'user'): Promise<string> {
    return this.tokens.issue(
      { subject: userId, audience: scope === 'admin' ? ADMIN_AUDIENCE : AUDIENCE, ttlSeconds: MEDIA_TOKEN_TTL_SECONDS, expiresAt },
      { path },
    );
  }

  /** The claims of a valid media token, or null for anything else (expired, forged, another type…). */
  async verify(token: string, scope: MediaScope = 'user'): Promise<MediaClaims | null> {
    const payload = this.tokens.verify(token, scope === 'admin' ? ADMIN_AUDIENCE : AUDIENCE);
    if (!payload) return null;
    const userId = Number(payload.sub);
    if (!Number.isSafeInteger(userId) || userId <= 0 || typeof payload.path !== 'string') return null;
    return { userId, path: payload.path };
  }
}
