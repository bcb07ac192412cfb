// Test helpers for the client apps' unit tests; never imported by app code.
import { initReactI18next } from 'react-i18next';
import { i18n, translationNamespaces, translationsBackend, translationsReady } from '../i18n';

/**
 * Initialises the shared i18next instance in English, as the shell would, for components under test, and waits
 * for the English strings of every namespace registered so far (the modules under test register theirs as they
 * are imported).
 */
export async function initTestI18n(): Promise<void> {
  if (!i18n.isInitialized) {
    await i18n
      .use(initReactI18next)
      .use(translationsBackend)
      .init({
        lng: 'en',
        fallbackLng: false,
        ns: translationNamespaces(),
        interpolation: { escapeValue: false },
        react: { useSuspense: false },
      });
  }
  await translationsReady();
}

type Route = { status?: number; body: unknown } | ((url: string, init?: RequestInit) => { status?: number; body: unknown });

/**
 * Replaces the global fetch (jsdom has none) with canned JSON answers by path, e.g. `{'GET /api/user': {...}}`.
 * Returns the mock so a test can read the calls. Unknown routes answer 404.
 */
export function mockFetch(routes: Record<string, Route>): jest.Mock {
  const mock = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const key = `${init?.method ?? 'GET'} ${url.split('?')[0]}`;
    const route = routes[key];
    const answer = typeof route === 'function' ? route(url, init) : (route ?? { status: 404, body: { error: 'not_found', message: key } });
    const status = answer.status ?? 200;
    return {
      ok: status >= 200 && status < 300,
      status,
      statusText: '',
      headers: { get: () => null },
      json: async () => answer.body,
    } as unknown as Response;
  });
  globalThis.fetch = mock as unknown as typeof fetch;
  return mock;
}

export { chatFixture } from './chats';
