import { filesApi } from './endpoints';

/** Renew a media token this long before it expires. */
const RENEW_BEFORE_MS = 5 * 60 * 1000;

interface CachedToken {
  token: string;
  expiresAt: number;
}

const cache = new Map<string, CachedToken>();
const batches = new Map<boolean, { paths: Set<string>; promise: Promise<void> }>();
const cacheKey = (path: string, admin: boolean) => (admin ? `admin:${path}` : path);

/**
 * Media tokens, one per file path, bound to the user and the path and good for an hour (never the access
 * token: a media URL may end up in a log or a shared link). Paths asked for in the same tick share one request.
 * `admin` tokens (role ≥ 2) open any stored file through the admin routes (spec §7).
 */
export async function mediaToken(path: string, admin = false): Promise<string | null> {
  const cached = cache.get(cacheKey(path, admin));
  if (cached && cached.expiresAt - RENEW_BEFORE_MS > Date.now()) return cached.token;
  let batch = batches.get(admin);
  if (!batch) {
    const paths = new Set<string>();
    const promise = Promise.resolve().then(async () => {
      batches.delete(admin);
      const { tokens, expires_in } = await filesApi.tokens([...paths], admin);
      const expiresAt = Date.now() + expires_in * 1000;
      for (const [tokenPath, token] of Object.entries(tokens)) cache.set(cacheKey(tokenPath, admin), { token, expiresAt });
    });
    batch = { paths, promise };
    batches.set(admin, batch);
  }
  batch.paths.add(path);
  await batch.promise;
  return cache.get(cacheKey(path, admin))?.token ?? null;
}

/** The URL that shows a file inline (`/api/receive/…`), or that downloads it under its own name (`save as`). */
export async function mediaUrl(path: string, download = false, admin = false): Promise<string | null> {
  const token = await mediaToken(path, admin);
  if (!token) return null;
  const encodedToken = encodeURIComponent(token);
  const scope = admin ? 'admin/' : '';
  return download
    ? `/api/specific/${scope}file?token=${encodedToken}&path=${encodeURIComponent(path)}`
    : `/api/receive/${scope}${path.split('/').map(encodeURIComponent).join('/')}?token=${encodedToken}`;
}

/** Forgets cached tokens (sign-out). */
export function clearMediaTokens(): void {
  cache.clear();
}
