import type { Page, Route } from './test';
import { expect, test } from './test';
import { annaAndBoris, messageAction, messageRow, send } from './fixtures';

/** The sessions this browser's cache holds for the page's origin (issue 13's warm start). */
function cachedSessions(page: Page): Promise<{ userId: number; chats: number; threads: number; previews: string[] }[]> {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const opening = indexedDB.open('msgr-cache');
        opening.onerror = () => reject(opening.error);
        opening.onsuccess = () => {
          const db = opening.result;
          if (!db.objectStoreNames.contains('sessions')) {
            db.close();
            resolve([]);
            return;
          }
          const reading = db.transaction('sessions').objectStore('sessions').getAll();
          reading.onerror = () => reject(reading.error);
          reading.onsuccess = () => {
            db.close();
            resolve(
              (reading.result as { userId: number; chats: { last_message: { text: string } | null }[]; threads: unknown[] }[]).map((record) => ({
                userId: record.userId,
                chats: record.chats.length,
                threads: record.threads.length,
                previews: record.chats.map((chat) => chat.last_message?.text ?? ''),
              })),
            );
          };
        };
      }),
  );
}

/** Holds every API request of the page until `release()`: the server has not answered anything. */
async function holdTheServer(page: Page): Promise<{ held: Route[]; release(): Promise<void> }> {
  const held: Route[] = [];
  let holding = true;
  const hold = (route: Route) => (holding ? void held.push(route) : route.continue());
  await page.route('**/api/**', hold);
  return {
    held,
    async release() {
      holding = false;
      // A request the page gave up on meanwhile cannot be continued; that is not this test's business.
      for (const route of held.splice(0)) await route.continue().catch(() => undefined);
      await page.unroute('**/api/**', hold);
    },
  };
}

test('a reload paints the chat list and the open chat from the cache before the server answers, then shows what changed meanwhile', async ({
  browser,
}) => {
  const { anna, boris } = await annaAndBoris(browser);
  await send(anna, 'first');
  await send(anna, 'second');
  const borisRow = boris.getByRole('link', { name: /Anna/ });
  await borisRow.click();
  await expect(messageRow(boris, 'second')).toBeVisible();
  // The cache has caught up with the open chat (it saves within half a second of a change).
  await expect
    .poll(async () => (await cachedSessions(boris)).map(({ threads, previews }) => ({ threads, previews })), { timeout: 15_000 })
    .toEqual([{ threads: 1, previews: ['second'] }]);

  // While Boris is away, Anna deletes one message and writes another.
  const chatUrl = boris.url();
  await boris.goto('about:blank');
  await messageAction(anna, 'first', 'Delete');
  await anna.getByRole('dialog', { name: 'Delete this message?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(messageRow(anna, 'first')).toHaveCount(0);
  await send(anna, 'third');

  const server = await holdTheServer(boris);
  // A new load of the chat's address (going back might restore the old page from the back-forward cache).
  await boris.goto(chatUrl);
  // Painted with no answer from the server: the list's row with its preview, and the chat's messages.
  await expect(boris.getByRole('link', { name: /Anna/ })).toContainText('second');
  await expect(messageRow(boris, 'second')).toBeVisible();
  await expect(messageRow(boris, 'first')).toBeVisible();
  expect(server.held.length).toBeGreaterThan(0);

  // The server answers: the cached copy gives way to what is true now.
  await server.release();
  await expect(messageRow(boris, 'third')).toBeVisible();
  await expect(messageRow(boris, 'first')).toHaveCount(0);
  await expect(boris.getByRole('link', { name: /Anna/ })).toContainText('third');
  // And it is live: a new message arrives without a reload.
  await send(anna, 'fourth');
  await expect(messageRow(boris, 'fourth')).toBeVisible();

  // Logging out leaves nothing of Boris's chats in this browser.
  await boris.getByRole('tab', { name: 'Profile' }).click();
  await boris.getByRole('button', { name: 'Log out' }).click();
  await boris.getByRole('dialog', { name: 'Log out?' }).getByRole('button', { name: 'Log out' }).click();
  await expect(boris).toHaveURL(/\/login/);
  await expect.poll(() => cachedSessions(boris), { timeout: 15_000 }).toEqual([]);

  await anna.context().close();
  await boris.context().close();
});

test('with the server unreachable, a returning person still sees their chats, is told they are offline, and is back once it returns', async ({
  browser,
}) => {
  const { anna, boris } = await annaAndBoris(browser);
  await send(anna, 'before the outage');
  await expect(boris.getByRole('link', { name: /Anna/ })).toContainText('before the outage');
  await expect.poll(async () => (await cachedSessions(boris))[0]?.previews, { timeout: 15_000 }).toEqual(['before the outage']);

  const refuse = (route: Route) => route.abort('internetdisconnected');
  await boris.route('**/api/**', refuse);
  await boris.reload();
  await expect(boris.getByRole('link', { name: /Anna/ })).toContainText('before the outage');
  await expect(boris.getByRole('status').filter({ hasText: 'No connection. Reconnecting…' })).toBeVisible();

  await send(anna, 'after the outage');
  await boris.unroute('**/api/**', refuse);
  // Tried again on its own (the retries back off to at most 10 s apart), then live.
  await expect(boris.getByRole('link', { name: /Anna/ })).toContainText('after the outage', { timeout: 30_000 });

  await anna.context().close();
  await boris.context().close();
});
