import { filesApi } from './endpoints';

/** Renew a media token this long before it expires. */
const RENEW_BEFORE_MS = 5 * 60 * 1000;

interface CachedToken {
  token: string;
  expiresAt: number;
}

const cache = new Map<string, CachedToken>();
let batch: { paths: Set<string>; promise: Promise<void> } | null = null;

/**
 * Media tokens, one per file path, bound to the user and the path and good for an hour (never the access
 * token: a media URL may end up in a log or a shared link). Paths asked for in the same tick share one request.
 */
export async function mediaToken(path: string): Promise<string | null> {
  const cached = cache.get(path);
  if (cached && cached.expiresAt - RENEW_BEFORE_MS > Date.now()) return cached.token;
  if (!batch) {
    const paths = new Set<string>();
    const promise = Promise.resolve().then(async () => {
      batch = null;
      const { tokens, expires_in } = await filesApi.tokens([...paths]);
      const expiresAt = Date.now() + expires_in * 1000;
      for (const [tokenPath, token] of Object.entries(tokens)) cache.set(tokenPath, { token, expiresAt });
    });
    batch = { paths, promise };
  }
  batch.paths.add(path);
  await batch.promise;
  return cache.get(path)?.token ?? null;
}

/** The URL that shows a file inline (`/api/receive/…`), or that downloads it under its own name (`save as`). */
export async function mediaUrl(path: string, download = false): Promise<string | null> {
  const token = await mediaToken(path);
  if (!token) return null;
  const encodedToken = encodeURIComponent(token);
  return download
    ? `/api/specific/file?token=${encodedToken}&path=${encodeURIComponent(path)}`
    : `/api/receive/${path.split('/').map(encodeURIComponent).join('/')}?token=${encodedToken}`;
}

/** Forgets cached tokens (sign-out). */
export function clearMediaTokens(): void {
  cache.clear();
}
