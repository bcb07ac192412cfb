import type { JwtInfo } from '../model/types';
import { config } from '../config';
import { cookies } from './cookies';
import { withdrawMeetingTicket } from '../calls/meeting-ticket-handoff';

/** Where the session's tokens live (spec §3 stored values): cookies shared by every tab, kept 300 days. */
export const tokenStorage = {
  get access(): string | undefined {
    return cookies.get('access_token');
  },
  get refresh(): string | undefined {
    return cookies.get('refresh_token');
  },
  save(tokens: JwtInfo): void {
    // Issued a moment ago by the server's clock: how far this browser's clock is from it.
    const issuedAt = jwtPayload(tokens.access_token)?.iat;
    if (typeof issuedAt === 'number') serverClockOffsetMs = issuedAt * 1000 - Date.now();
    cookies.set('access_token', tokens.access_token, config.tokenStorageDays);
    cookies.set('refresh_token', tokens.refresh_token, config.tokenStorageDays);
  },
  clear(): void {
    cookies.remove('access_token');
    cookies.remove('refresh_token');
    cookies.remove('meet_token');
    cookies.remove('meet_user');
    withdrawMeetingTicket();
  },
  /** A session exists when either token is stored (spec §2 guard). */
  hasSession(): boolean {
    return Boolean(this.access || this.refresh);
  },
};

/**
 * The server's clock minus this browser's, as last seen from a token's issue time (0 until a token is issued in
 * this page): a token expires by the server's clock, and a computer whose clock is behind would otherwise present
 * tokens the server already refuses — sockets then fail to reconnect until the local clock catches up.
 */
let serverClockOffsetMs = 0;

/** A JWT's payload, or null when it cannot be read. */
function jwtPayload(token: string | undefined): { exp?: unknown; sub?: unknown; iat?: unknown } | null {
  if (!token) return null;
  try {
    const payload = token.split('.')[1];
    if (!payload) return null;
    return JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown; sub?: unknown; iat?: unknown };
  } catch {
    return null;
  }
}

/** Milliseconds until a JWT's `exp` by the server's clock, or 0 when it cannot be read (treated as expired). */
export function msUntilExpiry(token: string | undefined, now = Date.now() + serverClockOffsetMs): number {
  const exp = jwtPayload(token)?.exp;
  return typeof exp === 'number' ? Math.max(0, exp * 1000 - now) : 0;
}

/** The user id an access token was issued to (its `sub`), or null when it cannot be read. */
export function tokenUserId(token: string | undefined): number | null {
  const id = Number(jwtPayload(token)?.sub);
  return Number.isInteger(id) && id > 0 ? id : null;
}
