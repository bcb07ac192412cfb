/**
 * The language the app was last used in, kept where the worker can read it (it has no localStorage): the offline
 * page speaks it. Pushes carry their own.
 */
const STORE = 'messenger-settings';
const KEY = '/language';

export async function saveLanguage(language: string): Promise<void> {
  const cache = await caches.open(STORE);
  await cache.put(KEY, new Response(language));
}

export async function readLanguage(): Promise<string | null> {
  try {
    const response = await caches.match(KEY, { cacheName: STORE });
    return response ? await response.text() : null;
  } catch {
    return null;
  }
}
