import { createHmac } from 'node:crypto';
import type { IceServer } from '../../media/engine.js';

/**
 * ICE servers for a browser joining a call: the configured STUN and TURN URLs, TURN with credentials per the TURN
 * REST API (coturn's `use-auth-secret`): username `<unix expiry>:<user id>`, password the base64 HMAC-SHA1 of the
 * username under the shared secret. They stop working at the expiry.
 */
export function iceServersFor(userId: number, urls: string[], secret: string | undefined, ttlSeconds: number, now = Date.now()): IceServer[] {
  const stun = urls.filter((url) => url.startsWith('stun:'));
  const turn = urls.filter((url) => url.startsWith('turn:') || url.startsWith('turns:'));
  const servers: IceServer[] = stun.length > 0 ? [{ urls: stun }] : [];
  if (turn.length > 0 && secret) {
    const username = `${Math.floor(now / 1000) + ttlSeconds}:${userId}`;
    servers.push({ urls: turn, username, credential: createHmac('sha1', secret).update(username).digest('base64') });
  }
  return servers;
}
