import { CLUSTER, expect, test } from './test';
import { newPhone, personRow, signUpInBrowser } from './fixtures';

test('two people sign in, become contacts and chat live; a reload keeps them signed in', CLUSTER, async ({ browser }) => {
  const anna = await browser.newContext();
  const boris = await browser.newContext();
  const annaPage = await anna.newPage();
  const borisPage = await boris.newPage();

  const borisPhone = newPhone();
  await signUpInBrowser(annaPage, 'Anna');
  await signUpInBrowser(borisPage, 'Boris', borisPhone);

  // Anna adds Boris by phone and opens their chat from her contacts.
  await annaPage.getByRole('tab', { name: 'Contacts' }).click();
  await annaPage.getByRole('button', { name: 'New contact' }).click();
  const dialog = annaPage.getByRole('dialog', { name: 'New contact' });
  await dialog.getByLabel('Phone number').fill(borisPhone);
  await dialog.getByLabel('Name', { exact: true }).fill('Boris B.');
  await dialog.getByRole('button', { name: 'Add contact' }).click();
  await expect(dialog).toBeHidden();
  await personRow(annaPage, 'Boris B.').click();
  await expect(annaPage.getByRole('heading', { name: 'Boris B.' })).toBeVisible();

  await annaPage.getByRole('textbox', { name: 'Message' }).fill('Hello Boris! <b>not bold</b>');
  await annaPage.getByRole('button', { name: 'Send' }).click();
  const annaLog = annaPage.getByRole('log', { name: 'Messages' });
  await expect(annaLog.getByText('Hello Boris! <b>not bold</b>')).toBeVisible();
  await expect(annaLog.getByLabel('Sent')).toBeVisible();

  // Boris sees the chat and the message arrive without reloading.
  const annaRow = borisPage.getByRole('link', { name: /Anna/ });
  await expect(annaRow).toContainText('Hello Boris!');
  await expect(annaRow.getByLabel('1 unread message')).toBeVisible();
  await annaRow.click();
  const borisLog = borisPage.getByRole('log', { name: 'Messages' });
  await expect(borisLog.getByText('Hello Boris! <b>not bold</b>')).toBeVisible();
  await expect(borisPage.getByRole('link', { name: /Anna/ }).getByLabel(/unread/)).toHaveCount(0);

  // Boris replies; Anna sees it live in the open chat.
  await borisPage.getByRole('textbox', { name: 'Message' }).fill('Hi Anna, got it.');
  await borisPage.keyboard.press('Enter');
  await expect(annaLog.getByText('Hi Anna, got it.')).toBeVisible();

  // Both reload: still signed in, the conversation is still there.
  for (const page of [annaPage, borisPage]) {
    await page.reload();
    await expect(page.getByRole('log', { name: 'Messages' }).getByText('Hi Anna, got it.')).toBeVisible();
    await expect(page.getByRole('log', { name: 'Messages' }).getByText('Hello Boris! <b>not bold</b>')).toBeVisible();
  }
  await expect(annaPage).toHaveURL(/\/\d+$/);

  await anna.close();
  await boris.close();
});
