/// <reference lib="webworker" />
// The service worker (built to /sw.js by the shell's second webpack config): Web Push notifications with the app
// closed, opening the chat when one is clicked, and the offline page. It intercepts page navigations only —
// never the API, sockets, scripts or the remotes — so a deploy never waits on a cache of ours.
import { readLanguage, saveLanguage } from './language';
import { offlinePage } from './offline-page';
import { chatPath, pickWindow } from './open-chat';
import { parsePush, renderPush, type PushPayload } from './render';

declare const self: ServiceWorkerGlobalScope;

self.addEventListener('install', () => {
  // A new worker takes over at once: it holds no caches an open page could depend on.
  void self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      // The page's request starts while the worker boots, so intercepting navigations costs no time online.
      await self.registration.navigationPreload?.enable();
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  if (event.request.mode !== 'navigate') return;
  event.respondWith(
    (async () => {
      try {
        const preloaded = (await event.preloadResponse) as Response | undefined;
        return preloaded ?? (await fetch(event.request));
      } catch {
        return offlinePage(await readLanguage());
      }
    })(),
  );
});

self.addEventListener('message', (event) => {
  const data = event.data as { type?: unknown; language?: unknown } | null;
  if (data?.type === 'language' && typeof data.language === 'string') event.waitUntil(saveLanguage(data.language));
});

self.addEventListener('push', (event) => {
  let data: unknown = null;
  try {
    data = event.data?.json();
  } catch {
    return;
  }
  const payload = parsePush(data);
  if (payload) event.waitUntil(show(payload));
});

/** Shown unless the app is in front of the person already (it tells them itself then). */
async function show(payload: PushPayload): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  if (windows.some((window) => window.focused && new URL(window.url).origin === self.location.origin)) return;
  const { title, options } = renderPush(payload);
  await self.registration.showNotification(title, options);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const chatId = (event.notification.data as { chat_id?: unknown } | null)?.chat_id;
  event.waitUntil(openChat(typeof chatId === 'number' ? chatId : undefined));
});

/** Brings an open app window forward and asks it to open the chat (it navigates itself), or opens a new one. */
async function openChat(chatId: number | undefined): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const window = pickWindow(windows, self.location.origin);
  const path = chatPath(chatId);
  if (window) {
    const focused = await window.focus();
    focused.postMessage({ type: 'open-chat', path });
    return;
  }
  await self.clients.openWindow(path);
}
