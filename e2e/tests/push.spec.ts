import { expect, test, type BrowserContext } from './test';
import { annaAndBoris, chatHeader, send } from './fixtures';
import { LocalPushService } from './push-service';

// Issue 14: Web Push with the app closed, and an installable app with an offline page.

/**
 * What the site's service worker shows (the browser's own notification list), asked of the worker itself: no page
 * of the app is open, as when the app is closed (an open, focused one would make the worker keep quiet).
 */
const shownNotifications = async (context: BrowserContext, origin: string) => {
  // The newest first: a worker stopped while no page was open (and started again by the push) may still be listed
  // beside the one running now.
  const workers = context.serviceWorkers().filter((candidate) => candidate.url() === `${origin}/sw.js`).reverse();
  for (const worker of workers) {
    try {
      return await worker.evaluate(async () => {
        const scope = self as unknown as { registration: ServiceWorkerRegistration };
        return (await scope.registration.getNotifications()).map(({ title, body, tag }) => ({ title, body, tag }));
      });
    } catch {
      // this one stopped meanwhile
    }
  }
  return null;
};

test('web push: with his app closed, Boris’s browser shows Anna’s message from a push; the app installs and has an offline page', async ({
  browser,
  baseURL,
}) => {
  const pushService = await LocalPushService.start();
  try {
    const { anna, boris } = await annaAndBoris(browser);
    const origin = new URL(baseURL!).origin;

    // Boris allows notifications. This headless Chromium reaches no push service: once it tried to subscribe, his
    // profile says notifications come only while Messenger is open.
    await boris.context().grantPermissions(['notifications'], { origin });
    await boris.reload();
    await boris.getByRole('tab', { name: 'Profile' }).click();
    await expect(boris.getByText('On while Messenger is open (this browser cannot receive them when it is closed)')).toBeVisible();

    // Give his browser a push service — the run's own: the browser's PushManager answers with a subscription there
    // (keys made by the test, which decrypts what arrives). From here on the app's code runs as it would with FCM:
    // it subscribes with the server's key and sends the subscription to the server.
    const subscription = pushService.subscribe();
    await boris.context().addInitScript((given) => {
      let current: unknown = null;
      PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
        const key = options?.applicationServerKey as Uint8Array;
        current = {
          endpoint: given.endpoint,
          options: { applicationServerKey: key.slice().buffer, userVisibleOnly: true },
          toJSON: () => ({ endpoint: given.endpoint, expirationTime: null, keys: given.keys }),
          unsubscribe: async () => ((current = null), true),
        };
        return current as PushSubscription;
      };
      PushManager.prototype.getSubscription = async () => current as PushSubscription | null;
    }, subscription);
    await boris.reload();
    await boris.getByRole('tab', { name: 'Profile' }).click();
    await expect(boris.getByText('On, also when Messenger is closed')).toBeVisible();
    await expect.poll(() => boris.evaluate(async () => Boolean((await navigator.serviceWorker.ready).active))).toBe(true);

    // Boris closes the app. Anna writes: the server pushes it to his browser's push service.
    await boris.goto('about:blank');
    await expect(chatHeader(anna, 'Boris')).toContainText('last seen just now');
    await send(anna, 'Are you coming tonight?');
    await expect.poll(() => pushService.pushesFor(subscription).length).toBe(1);
    const [push] = pushService.pushesFor(subscription) as Array<{ chat_id: number }>;
    expect(push).toMatchObject({ kind: 'message', sender: 'Anna', group: null, text: 'Are you coming tonight?', mention: false });

    // The push service delivers it to his browser: the service worker shows it, with the app still closed.
    const devTools = await boris.context().newCDPSession(boris);
    const registrations: Array<{ registrationId: string; scopeURL: string; isDeleted: boolean }> = [];
    devTools.on('ServiceWorker.workerRegistrationUpdated', (event) => registrations.push(...event.registrations));
    await devTools.send('ServiceWorker.enable');
    await expect.poll(() => registrations.some((entry) => entry.scopeURL === `${origin}/` && !entry.isDeleted)).toBe(true);
    const registration = registrations.find((entry) => entry.scopeURL === `${origin}/` && !entry.isDeleted)!;
    await devTools.send('ServiceWorker.deliverPushMessage', { origin, registrationId: registration.registrationId, data: JSON.stringify(push) });
    await expect
      .poll(() => shownNotifications(boris.context(), origin))
      .toEqual([{ title: 'Anna', body: 'Are you coming tonight?', tag: `chat-${push!.chat_id}` }]);

    // Installable: the manifest with its icons, nothing Chromium objects to — but that a Playwright context is an
    // incognito profile, where Chromium never offers to install anything.
    await boris.goto('/');
    await expect(boris.getByRole('tab', { name: 'Chats' })).toBeVisible();
    const pageTools = await boris.context().newCDPSession(boris);
    const manifest = await pageTools.send('Page.getAppManifest');
    expect(JSON.parse(manifest.data ?? '{}')).toMatchObject({ name: 'Messenger', display: 'standalone', start_url: '/' });
    await expect
      .poll(async () => (await pageTools.send('Page.getInstallabilityErrors')).installabilityErrors.map((error) => error.errorId))
      .toEqual(['in-incognito']);

    // Offline, a page of the app opens on the offline page; online again, "Try again" brings the app back.
    await boris.context().setOffline(true);
    await boris.goto('/');
    await expect(boris.getByRole('heading', { name: 'You are offline' })).toBeVisible();
    await boris.context().setOffline(false);
    await boris.getByRole('link', { name: 'Try again' }).click();
    await expect(boris.getByRole('tab', { name: 'Chats' })).toBeVisible();
  } finally {
    await pushService.close();
  }
});
