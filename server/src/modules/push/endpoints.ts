/**
 * The push services browsers subscribe through (Chrome/Edge via FCM, Firefox, Windows, Safari). A subscription's
 * endpoint must be on one of them: the server posts to that address, so an arbitrary one would let anybody aim
 * the server at a host of their choosing.
 */
const PUSH_SERVICE_HOSTS = ['fcm.googleapis.com', 'android.googleapis.com', 'push.services.mozilla.com', 'notify.windows.com', 'push.apple.com'];

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
