import { useEffect, useRef } from 'react';
import { useNavigate } from '@messenger/router';
import { syncPush, useAuthStore, useSettingsStore } from '@messenger/shared';

/** Registers /sw.js (push with the app closed, the offline page) once the page has loaded. */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const register = () =>
    navigator.serviceWorker.register('/sw.js').catch((error: unknown) => {
      // Without it the app works as before: notifications only while it is open, no offline page.
      console.warn('service worker not registered', error);
    });
  if (document.readyState === 'complete') void register();
  else window.addEventListener('load', () => void register(), { once: true });
}

/**
 * The page's side of the service worker: a clicked notification asks this window to open its chat; the worker
 * is told the app's language (for its offline page); a change of language re-subscribes, so pushes speak it.
 */
export function useServiceWorker(): void {
  const navigate = useNavigate();
  const language = useSettingsStore((state) => state.language);

  useEffect(() => {
    if (!('serviceWorker' in navigator)) return;
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { type?: unknown; path?: unknown } | null;
      if (data?.type === 'open-chat' && typeof data.path === 'string' && data.path.startsWith('/')) navigate(data.path);
    };
    navigator.serviceWorker.addEventListener('message', onMessage);
    return () => navigator.serviceWorker.removeEventListener('message', onMessage);
  }, [navigate]);

  useEffect(() => {
    if (!('serviceWorker' in navigator)) return;
    void navigator.serviceWorker.ready.then((registration) => registration.active?.postMessage({ type: 'language', language }));
  }, [language]);

  // The session's start subscribes already; this follows later changes of language.
  const subscribedIn = useRef(language);
  useEffect(() => {
    if (subscribedIn.current === language) return;
    subscribedIn.current = language;
    if (useAuthStore.getState().user) void syncPush();
  }, [language]);
}
