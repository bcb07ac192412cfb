import { useEffect, useState } from 'react';
import { mediaUrl } from '../api/media';

/** The inline URL of a stored file once its media token is in hand; null meanwhile (or if it is not ours to see). */
export function useMediaUrl(path: string | null | undefined): string | null {
  const [url, setUrl] = useState<{ path: string; url: string | null } | null>(null);
  useEffect(() => {
    if (!path) return;
    let cancelled = false;
    mediaUrl(path)
      .then((resolved) => !cancelled && setUrl({ path, url: resolved }))
      .catch(() => !cancelled && setUrl({ path, url: null }));
    return () => {
      cancelled = true;
    };
  }, [path]);
  return path && url?.path === path ? url.url : null;
}
