import { expect, test } from './test';
import { STORED, addContact, messageRow, newPhone, openChatWith, send, signUpThroughApi } from './fixtures';

// Issue 14: what someone typed and did not send stays with its chat, across chat switches and reloads.
test('an unsent text stays with its chat across a switch to another chat and a reload, and goes once sent', async ({ browser }) => {
  const anna = await browser.newContext();
  const page = await anna.newPage();
  const borisPhone = newPhone();
  const vikaPhone = newPhone();
  for (const [name, phone] of [['Boris', borisPhone], ['Vika', vikaPhone]] as const) {
    const context = await browser.newContext();
    await signUpThroughApi(await context.newPage(), name, phone);
    await context.close();
  }
  await signUpThroughApi(page, 'Anna');
  await addContact(page, borisPhone, 'Boris');
  await addContact(page, vikaPhone, 'Vika');
  const composer = page.getByRole('textbox', { name: 'Message' });

  await openChatWith(page, 'Boris');
  await composer.fill('see you at');
  await openChatWith(page, 'Vika');
  await expect(composer).toHaveValue('');
  await composer.fill('for Vika');
  // The chat left with something unsent says so in the chat list, the open one does not.
  await page.getByRole('tab', { name: 'Chats' }).click();
  await expect(page.getByRole('link', { name: /Boris/ })).toContainText('Draft: see you at');
  await expect(page.getByRole('link', { name: /Vika/ })).not.toContainText('Draft:');

  await openChatWith(page, 'Boris');
  await expect(composer).toHaveValue('see you at');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Boris' })).toBeVisible();
  await expect(composer).toHaveValue('see you at');

  await composer.fill('see you at eight');
  await composer.press('Enter');
  await expect(messageRow(page, 'see you at eight').getByRole('img', { name: STORED })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Boris' })).toBeVisible();
  await expect(composer).toHaveValue('');

  await openChatWith(page, 'Vika');
  await expect(composer).toHaveValue('for Vika');
  await send(page, 'hello Vika');
  await expect(composer).toHaveValue('');
  await anna.close();
});
