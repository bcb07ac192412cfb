import { create } from 'zustand';
import { pushApi } from '../api/endpoints';
import { useSettingsStore } from '../stores/settings';

/**
 * Notifications with the app closed, as far as this browser goes:
 * - `unsupported`: no service workers or Push API here;
 * - `prompt`: the person has not been asked (they are, only when they choose to, in their profile);
 * - `denied`: they refused, in the browser;
 * - `checking`: allowed, and the subscription is being made or confirmed;
 * - `on`: subscribed, and the server knows the subscription;
 * - `unavailable`: allowed, but the browser could not subscribe (no push service reachable, a private window…):
 *   notifications then come only while the app is open.
 */
export type PushStatus = 'unsupported' | 'prompt' | 'denied' | 'checking' | 'on' | 'unavailable';

export const usePushStore = create<{ status: PushStatus }>(() => ({ status: initialStatus() }));

/** How long to wait for the service worker before calling push unavailable (it may have failed to register). */
const WORKER_READY_MS = 10_000;

function supported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && typeof Notification !== 'undefined';
}

function permission(): 'unsupported' | 'prompt' | 'denied' | 'granted' {
  if (!supported()) return 'unsupported';
  return Notification.permission === 'default' ? 'prompt' : Notification.permission;
}

function initialStatus(): PushStatus {
  const current = permission();
  return current === 'granted' ? 'checking' : current;
}

let syncing: Promise<void> | null = null;
/** A sync was asked for while one ran (e.g. the language changed): it runs again after. */
let again = false;
/** The sign-out's unsubscribe, which a sync that follows must wait for. */
let dropping: Promise<void> = Promise.resolve();

/**
 * Makes sure that, if the person allowed notifications, this browser is subscribed with the server's current key
 * and the server has the subscription with the app's language. Called when a session starts, when the language
 * changes and after permission is given; safe to call any time (one run at a time, and one more after it if
 * asked meanwhile).
 */
export function syncPush(): Promise<void> {
  if (syncing) {
    again = true;
    return syncing;
  }
  syncing = (async () => {
    do {
      again = false;
      await dropping;
      await doSync();
    } while (again);
  })().finally(() => {
    syncing = null;
  });
  return syncing;
}

async function doSync(): Promise<void> {
  const current = permission();
  if (current !== 'granted') {
    usePushStore.setState({ status: current });
    return;
  }
  usePushStore.setState({ status: 'checking' });
  try {
    const registration = await workerReady();
    const key = await pushApi.key();
    let subscription = await registration.pushManager.getSubscription();
    // Subscribed against another key (another server's data): that subscription can never be pushed to.
    if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
      await subscription.unsubscribe();
      subscription = null;
    }
    subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64UrlBytes(key) });
    const json = subscription.toJSON();
    if (!json.endpoint || !json.keys?.p256dh || !json.keys.auth) throw new Error('incomplete push subscription');
    await pushApi.subscribe({
      endpoint: json.endpoint,
      keys: { p256dh: json.keys.p256dh, auth: json.keys.auth },
      language: useSettingsStore.getState().language,
    });
    usePushStore.setState({ status: 'on' });
  } catch {
    usePushStore.setState({ status: 'unavailable' });
  }
}

/**
 * Signing out: the browser drops its subscription (the server dropped it with the login), so the next person
 * signing in here starts with a new one.
 */
export function dropPushSubscription(): Promise<void> {
  if (!supported()) return Promise.resolve();
  dropping = (async () => {
    try {
      const registration = await navigator.serviceWorker.getRegistration();
      await (await registration?.pushManager.getSubscription())?.unsubscribe();
    } catch {
      // Nothing more to do: the server no longer pushes to it.
    }
  })();
  return dropping;
}

function workerReady(): Promise<ServiceWorkerRegistration> {
  return Promise.race([
    navigator.serviceWorker.ready,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no service worker')), WORKER_READY_MS)),
  ]);
}

function base64UrlBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(text.length / 4) * 4, '=');
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
}

function sameKey(current: ArrayBuffer | null, key: string): boolean {
  if (!current) return false;
  const wanted = base64UrlBytes(key);
  const have = new Uint8Array(current);
  return have.length === wanted.length && have.every((byte, index) => byte === wanted[index]);
}
