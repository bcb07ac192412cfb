import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from './test';
import { FOURTH_ADMIN_PHONE, addContact, annaAndBoris, messageAction, messageRow, openChatWith, personRow, send, signUpAdminInBrowser, signUpInBrowser } from './fixtures';

const THEMES = ['light', 'dark'] as const;

/**
 * Runs axe's WCAG 2.x A and AA rules (colour contrast among them) on what the page shows now, in both themes.
 * The themes differ only by `data-theme` on the root element, so each is checked without reloading.
 */
async function expectAccessible(page: Page, screen: string): Promise<void> {
  for (const theme of THEMES) {
    await page.evaluate((value) => {
      document.documentElement.dataset.theme = value;
    }, theme);
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
      .analyze();
    const found = results.violations.flatMap((violation) =>
      violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')} — ${node.failureSummary?.split('\n').slice(1).join(' ').trim()}`),
    );
    expect(found, `${screen} in the ${theme} theme`).toEqual([]);
  }
}

test('every main screen meets WCAG AA (contrast included) in the light and the dark theme', async ({ browser }) => {
  // Six screens, each checked by axe in two themes: 150 s on a quiet machine of ours (2026-11-29), over 180 s
  // beside a build. Its steps wait on conditions; only the whole is bounded, generously.
  test.setTimeout(360_000);
  const anna = await (await browser.newContext()).newPage();
  await anna.goto('/login');
  await expect(anna.getByLabel('Phone number')).toBeVisible();
  await expectAccessible(anna, 'sign-in');

  const boris = await (await browser.newContext()).newPage();
  const { phone: borisPhone } = await signUpInBrowser(boris, 'Boris');
  const { phone: annaPhone } = await signUpInBrowser(anna, 'Anna');
  await expectAccessible(anna, 'empty chats list');

  await addContact(anna, borisPhone, 'Boris');
  await addContact(boris, annaPhone, 'Anna');
  await openChatWith(anna, 'Boris');
  await send(anna, 'Hello Boris');
  await openChatWith(boris, 'Anna');
  await send(boris, 'Hello Anna');
  await expect(anna.getByRole('log', { name: 'Messages' }).getByText('Hello Anna')).toBeVisible();
  // A reply's quote and a reaction, checked with the rest of the chat.
  await messageAction(anna, 'Hello Anna', 'Reply');
  await send(anna, 'Hi again');
  await messageRow(anna, 'Hello Anna').hover();
  await messageRow(anna, 'Hello Anna').getByRole('button', { name: 'Message actions' }).click();
  await anna.getByRole('menuitemcheckbox', { name: 'React with Thumbs up' }).click();
  await expect(messageRow(anna, 'Hello Anna').getByRole('button', { name: 'Thumbs up 1: You' })).toBeVisible();
  await expectAccessible(anna, 'a chat');

  await anna.getByRole('tab', { name: 'Contacts' }).click();
  await expect(personRow(anna, 'Boris')).toBeVisible();
  await expectAccessible(anna, 'contacts');
  await anna.getByRole('tab', { name: 'Calls' }).click();
  await expect(anna.getByText('No calls yet. Calls you make and receive will appear here.')).toBeVisible();
  await expectAccessible(anna, 'calls');
  await anna.getByRole('tab', { name: 'Profile' }).click();
  await expect(anna.getByRole('button', { name: 'Log out' })).toBeVisible();
  await expectAccessible(anna, 'profile');
  await anna.getByRole('button', { name: 'Log out' }).click();
  await expect(anna.getByRole('dialog', { name: 'Log out?' })).toBeVisible();
  await expectAccessible(anna, 'log out confirmation');

  const admin = await (await browser.newContext()).newPage();
  await signUpAdminInBrowser(admin, 'Alma Admin', FOURTH_ADMIN_PHONE);
  await admin.getByRole('switch', { name: 'Show secret chats' }).check();
  await expectAccessible(admin, 'admin chats list');
  const staffBar = admin.getByRole('navigation', { name: 'Staff' });
  await staffBar.getByRole('link', { name: 'Statistics' }).click();
  await expect(admin.getByRole('img', { name: /Chart of new users/ })).toBeVisible();
  await expectAccessible(admin, 'statistics');
  await staffBar.getByRole('link', { name: 'Employees' }).click();
  await expect(admin.getByRole('heading', { name: 'Employees' })).toBeVisible();
  await expect(admin.getByRole('row', { name: /Alma Admin/ })).toBeVisible();
  await expectAccessible(admin, 'employees');
  await staffBar.getByRole('link', { name: 'Files' }).click();
  await expect(admin.getByRole('heading', { name: 'Files' })).toBeVisible();
  await expectAccessible(admin, 'files');
});

test('a dialog, the message menu and the side-bar tabs work with the keyboard alone, and meet WCAG AA while open', async ({ browser }) => {
  test.setTimeout(180_000);
  const { anna } = await annaAndBoris(browser);
  await send(anna, 'Menus by keyboard');
  const focusIsInside = (selector: string) => anna.evaluate((inside) => document.activeElement?.closest(inside) !== null, selector);

  // The message menu: Enter on its button opens it on its first item, the arrows walk it (wrapping), Home and End
  // reach its ends, Escape closes it back on its button.
  const trigger = messageRow(anna, 'Menus by keyboard').getByRole('button', { name: 'Message actions' });
  await trigger.focus();
  await anna.keyboard.press('Enter');
  const menu = anna.getByRole('menu', { name: 'Message actions' });
  await expect(menu).toBeVisible();
  const items = menu.locator('[role="menuitem"], [role="menuitemcheckbox"]');
  await expect(items.first()).toBeFocused();
  await expectAccessible(anna, 'the message menu');
  await anna.keyboard.press('End');
  await expect(items.last()).toBeFocused();
  await anna.keyboard.press('ArrowDown');
  await expect(items.first()).toBeFocused();
  await anna.keyboard.press('ArrowUp');
  await expect(items.last()).toBeFocused();
  await anna.keyboard.press('ArrowUp');
  await expect(items.nth((await items.count()) - 2)).toBeFocused();
  await anna.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(trigger).toBeFocused();

  // A dialog: modal (the page behind is inert), Tab never leaves it, Escape closes it and focus goes back.
  await anna.getByRole('tab', { name: 'Contacts' }).click();
  const opener = anna.getByRole('button', { name: 'New contact' });
  await opener.focus();
  await anna.keyboard.press('Enter');
  const dialog = anna.getByRole('dialog', { name: 'New contact' });
  await expect(dialog).toBeVisible();
  expect(await dialog.evaluate((element) => element.matches(':modal'))).toBe(true);
  expect(await focusIsInside('dialog')).toBe(true);
  for (let step = 0; step < 12; step += 1) {
    await anna.keyboard.press(step % 4 === 3 ? 'Shift+Tab' : 'Tab');
    expect(await focusIsInside('dialog'), `focus after ${step + 1} presses of Tab`).toBe(true);
  }
  await expectAccessible(anna, 'a dialog');
  await anna.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();

  // The side-bar tabs: one stop in the Tab order (the selected tab); the arrows move between them, Enter opens.
  const tabs = anna.getByRole('tablist', { name: 'Sections' });
  await expect(tabs.locator('[role="tab"][tabindex="0"]')).toHaveCount(1);
  await anna.getByRole('tab', { name: 'Contacts' }).focus();
  await anna.keyboard.press('ArrowLeft');
  await expect(anna.getByRole('tab', { name: 'Calls' })).toBeFocused();
  await anna.keyboard.press('Enter');
  await expect(anna.getByRole('tab', { name: 'Calls' })).toHaveAttribute('aria-selected', 'true');
  await expect(anna.getByRole('tab', { name: 'Calls' })).toHaveAttribute('tabindex', '0');
  await anna.keyboard.press('ArrowLeft');
  await anna.keyboard.press('ArrowLeft');
  await expect(anna.getByRole('tab', { name: 'Profile' })).toBeFocused();
  await anna.keyboard.press('Home');
  await expect(anna.getByRole('tab', { name: 'Chats' })).toBeFocused();
});
