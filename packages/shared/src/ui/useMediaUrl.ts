import { useEffect, useState } from 'react';
import { mediaUrl } from '../api/media';

/**
 * The inline URL of a stored file once its media token is in hand; null meanwhile (or if it is not ours to
 * see). `admin` asks for an admin token (staff reading a chat they are not in).
 */
export function useMediaUrl(path: string | null | undefined, admin = false): string | null {
  const [url, setUrl] = useState<{ key: string; url: string | null } | null>(null);
  const key = `${admin}:${path}`;
  useEffect(() => {
    if (!path) return;
    let cancelled = false;
    mediaUrl(path, false, admin)
      .then((resolved) => !cancelled && setUrl({ key, url: resolved }))
      .catch(() => !cancelled && setUrl({ key, url: null }));
    return () => {
      cancelled = true;
    };
  }, [path, admin, key]);
  return path && url?.key === key ? url.url : null;
}
