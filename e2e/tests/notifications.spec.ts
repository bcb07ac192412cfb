import { expect, test, type Browser, type Page } from './test';
import { addContact, annaAndBoris, chatHeader, messageAction, messageRow, namedByContent, newPhone, openChatWith, send, signUpThroughApi } from './fixtures';

// Spec §4: a message to a chat that is not open shows a toast, which opens the chat; with "Hide message text in
// notifications" on, the toast says only that a message came.
test('a message to a chat not open shows a toast that opens it; hidden text stays hidden', async ({ browser }) => {
  const { anna, boris } = await annaAndBoris(browser);
  await send(anna, 'Hi Boris');
  await boris.getByRole('link', { name: /Anna/ }).click();
  await anna.getByRole('tab', { name: 'Profile' }).click();

  await send(boris, 'Are you there?');
  const toasts = anna.getByRole('region', { name: 'Notifications' });
  const toast = namedByContent(toasts, 'Boris', 'Open the chat');
  await expect(toast).toHaveAccessibleName('Boris Are you there?');
  await toast.click();
  await expect(anna.getByRole('heading', { name: 'Boris' })).toBeVisible();
  await expect(anna.getByRole('log', { name: 'Messages' }).getByText('Are you there?')).toBeVisible();

  await anna.getByRole('tab', { name: 'Profile' }).click();
  const hideText = anna.getByRole('switch', { name: 'Hide message text in notifications' });
  await hideText.click();
  await expect(hideText).toBeChecked();
  await send(boris, 'The secret plan');
  await expect(namedByContent(toasts, 'Boris', 'Open the chat')).toHaveAccessibleName('Boris New message');
  await expect(toasts).not.toContainText('The secret plan');
});

/**
 * A page whose visibility the test sets (headless Chromium's pages are always visible: another tab in front or a
 * minimised window leave them so) and whose system notifications are listed as they are made and closed.
 */
async function watchedPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  await context.grantPermissions(['notifications']);
  await context.addInitScript(() => {
    let hidden = false;
    Object.defineProperty(Document.prototype, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') });
    Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get: () => hidden });
    const shown: Array<{ title: string; body: string | undefined; closed: boolean; notification: Notification }> = [];
    const Native = window.Notification;
    class Watched extends Native {
      private readonly record: (typeof shown)[number];
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        this.record = { title, body: options?.body, closed: false, notification: this };
        shown.push(this.record);
      }
      override close(): void {
        this.record.closed = true;
        super.close();
      }
    }
    Object.assign(window, {
      Notification: Watched,
      __notifications: shown,
      __setHidden: (value: boolean) => {
        hidden = value;
        document.dispatchEvent(new Event('visibilitychange'));
      },
    });
  });
  return context.newPage();
}

type Watched = { __notifications: Array<{ title: string; body: string | undefined; closed: boolean; notification: Notification }>; __setHidden(value: boolean): void };
const systemNotifications = (page: Page) =>
  page.evaluate(() => (window as unknown as Watched).__notifications.map(({ title, body, closed }) => ({ title, body, closed })));
const setHidden = (page: Page, hidden: boolean) => page.evaluate((value) => (window as unknown as Watched).__setHidden(value), hidden);

// Spec §4: while the tab is hidden a message also shows as a system notification (the person allowed them); a
// click on it brings the chat; a message deleted takes its notification away.
test('a message while the tab is hidden shows a system notification, which opens the chat; deleted, it goes', async ({ browser }) => {
  const anna = await (await browser.newContext()).newPage();
  const boris = await watchedPage(browser);
  const borisPhone = newPhone();
  await signUpThroughApi(anna, 'Anna');
  await signUpThroughApi(boris, 'Boris', borisPhone);
  await addContact(anna, borisPhone, 'Boris');
  await openChatWith(anna, 'Boris');

  // Visible, Boris gets the in-app toast only.
  await send(anna, 'Hi Boris');
  await expect(namedByContent(boris.getByRole('region', { name: 'Notifications' }), 'Anna', 'Open the chat').first()).toBeVisible();
  expect(await systemNotifications(boris)).toEqual([]);

  await setHidden(boris, true);
  await send(anna, 'Are you there?');
  await expect.poll(() => systemNotifications(boris)).toEqual([{ title: 'Anna', body: 'Are you there?', closed: false }]);
  await send(anna, 'Sorry, wrong chat');
  await expect.poll(() => systemNotifications(boris)).toHaveLength(2);
  await deleteForEveryone(anna, 'Sorry, wrong chat');
  await expect.poll(() => systemNotifications(boris)).toEqual([
    { title: 'Anna', body: 'Are you there?', closed: false },
    { title: 'Anna', body: 'Sorry, wrong chat', closed: true },
  ]);

  // Back at the tab, a click on the notification opens the chat it is about.
  await setHidden(boris, false);
  await boris.evaluate(() => (window as unknown as Watched).__notifications[0]!.notification.dispatchEvent(new Event('click')));
  await expect(chatHeader(boris, 'Anna')).toBeVisible();
  await expect(messageRow(boris, 'Are you there?')).toBeVisible();
  expect((await systemNotifications(boris))[0]!.closed).toBe(true);
});

async function deleteForEveryone(page: Page, text: string): Promise<void> {
  await messageAction(page, text, 'Delete');
  await page.getByRole('dialog', { name: 'Delete this message?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(messageRow(page, text)).toHaveCount(0);
}
