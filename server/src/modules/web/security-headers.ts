import type { RemoteEntry } from '../../config.js';

/** Origins the remotes are loaded from when their manifest URL is absolute (independent deploys). */
export function remoteOrigins(remotes: RemoteEntry[]): string[] {
  const origins = new Set<string>();
  for (const remote of remotes) {
    try {
      const url = new URL(remote.manifest);
      if (url.protocol === 'http:' || url.protocol === 'https:') origins.add(url.origin);
    } catch {
      // relative to the page: same origin, covered by 'self'
    }
  }
  return [...origins];
}

/**
 * The page's Content-Security-Policy. Scripts only from this origin and the remotes' origins (no inline script,
 * no eval), so injected markup cannot run code that reads the JS-readable tokens; the page cannot be framed.
 * - `connect-src 'self'` covers the API and, in CSP 3 browsers, its ws:/wss: sockets on the same host; remotes'
 *   manifests are fetched from their origins.
 * - `style-src 'unsafe-inline'`: each app's CSS is injected as <style> elements by style-loader (styles cannot
 *   run script).
 * - `blob:` for media and images: voice messages, previews and the avatar cropper use object URLs.
 */
export function contentSecurityPolicy(remotes: RemoteEntry[]): string {
  const extra = remoteOrigins(remotes);
  const list = (...sources: string[]) => [...sources, ...extra].join(' ');
  const directives: Record<string, string> = {
    'default-src': "'self'",
    'script-src': list("'self'"),
    'style-src': list("'self'", "'unsafe-inline'"),
    'connect-src': list("'self'"),
    'img-src': list("'self'", 'data:', 'blob:'),
    'media-src': list("'self'", 'blob:'),
    'font-src': list("'self'", 'data:'),
    'worker-src': "'self' blob:",
    'manifest-src': "'self'",
    'frame-src': "'none'",
    'object-src': "'none'",
    'base-uri': "'none'",
    'form-action': "'self'",
    'frame-ancestors': "'none'",
  };
  return Object.entries(directives)
    .map(([name, value]) => `${name} ${value}`)
    .join('; ');
}

/** Headers every page, script and file of the client goes out with. */
export function securityHeaders(remotes: RemoteEntry[]): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(remotes),
    // Older browsers that do not know frame-ancestors.
    'X-Frame-Options': 'DENY',
    // Invite links and chat ids are in our paths: other sites get no referrer at all.
    'Referrer-Policy': 'same-origin',
    'X-Content-Type-Options': 'nosniff',
    'Permissions-Policy': 'camera=(self), microphone=(self), display-capture=(self), geolocation=(), payment=(), usb=()',
  };
}
