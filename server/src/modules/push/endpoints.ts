import { ECDH } from 'node:crypto';

/**
 * The push services browsers subscribe through (Chrome/Edge via FCM, Firefox, Windows, Safari; not the legacy
 * GCM, which is gone and which web-push would address without VAPID). A subscription's
 * endpoint must be on one of them: the server posts to that address, so an arbitrary one would let anybody aim
 * the server at a host of their choosing.
 */
const PUSH_SERVICE_HOSTS = ['fcm.googleapis.com', 'push.services.mozilla.com', 'notify.windows.com', 'push.apple.com'];

/** Whether `endpoint` is a push service's address (https on a known host) or on one of `extraOrigins` (tests). */
export function isPushEndpoint(endpoint: string, extraOrigins: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (extraOrigins.includes(url.origin)) return true;
  if (url.protocol !== 'https:' || url.port !== '') return false;
  return PUSH_SERVICE_HOSTS.some((host) => url.hostname === host || url.hostname.endsWith(`.${host}`));
}

/** Where an endpoint points, for logs: the host only (the path identifies the subscription). */
export function endpointHost(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return '?';
  }
}

/** Whether a subscription's `p256dh` is a point on P-256 (else every push to it would fail to encrypt). */
export function isBrowserKey(p256dh: string): boolean {
  try {
    // Decoding the point checks that it lies on the curve.
    ECDH.convertKey(Buffer.from(p256dh, 'base64url'), 'prime256v1');
    return true;
  } catch {
    return false;
  }
}
