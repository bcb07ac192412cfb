import { expect, test } from './test';
import { addContact, chatHeader, newPhone, openChatWith, send, signUpThroughApi } from './fixtures';

// Issue 14: Ctrl/⌘+K searches the chats, Alt+↑/↓ moves between them, Esc closes the open panel, and `?` lists
// every shortcut — all by keyboard alone.
test('the keyboard searches chats, moves between them, closes the info panel and lists its shortcuts', async ({ browser }) => {
  const anna = await browser.newContext();
  const page = await anna.newPage();
  const phones = { Boris: newPhone(), Vika: newPhone() };
  for (const [name, phone] of Object.entries(phones)) {
    const context = await browser.newContext();
    await signUpThroughApi(await context.newPage(), name, phone);
    await context.close();
  }
  await signUpThroughApi(page, 'Anna');
  for (const [name, phone] of Object.entries(phones)) await addContact(page, phone, name);
  await openChatWith(page, 'Boris');
  await send(page, 'to Boris');
  await openChatWith(page, 'Vika');
  await send(page, 'to Vika');
  await page.getByRole('tab', { name: 'Chats' }).click();
  const list = page.getByRole('list', { name: 'Chats' });
  // Newest first: Vika (open), then Boris.
  await expect(list.getByRole('link')).toHaveText([/Vika/, /Boris/]);

  await page.getByRole('textbox', { name: 'Message' }).focus();
  await page.keyboard.press('Alt+ArrowDown');
  await expect(page.getByRole('heading', { name: 'Boris' })).toBeVisible();
  await page.keyboard.press('Alt+ArrowUp');
  await expect(page.getByRole('heading', { name: 'Vika' })).toBeVisible();

  await page.keyboard.press('Control+k');
  const search = page.getByRole('searchbox', { name: 'Search' });
  await expect(search).toBeFocused();
  await page.keyboard.type('Bor');
  await expect(list.getByRole('link')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(list.getByRole('link')).toHaveCount(2);

  await chatHeader(page, 'Vika').click();
  const panel = page.getByRole('complementary', { name: 'User' });
  await expect(panel).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();

  await page.locator('body').press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help.getByRole('rowheader', { name: 'Search chats' })).toBeVisible();
  await expect(help.getByRole('row', { name: /Next chat/ })).toContainText('Alt+↓');
  // Behind an open dialog the shortcuts wait: the chat stays, and the search is not focused once it closes.
  const before = page.url();
  await page.keyboard.press('Alt+ArrowDown');
  await page.keyboard.press('Control+k');
  expect(page.url()).toBe(before);
  await expect(help).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Vika' })).toBeVisible();
  await expect(search).not.toBeFocused();
  // In the composer `?` is text, not a command.
  await page.getByRole('textbox', { name: 'Message' }).press('?');
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('?');
  await expect(help).toBeHidden();
  await anna.close();
});
