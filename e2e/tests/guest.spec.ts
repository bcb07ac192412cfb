import { expect, test } from './test';
import { codeFor, newPhone, personRow, send, signUpInBrowser } from './fixtures';

test('a visitor with an invite link chats as a guest, then signs in with a phone and keeps the chat', async ({ browser }) => {
  const anna = await (await browser.newContext()).newPage();
  await signUpInBrowser(anna, 'Anna');
  await anna.getByRole('tab', { name: 'Profile' }).click();
  const link = await anna.getByLabel('Your invite link').inputValue();
  expect(link).toMatch(/\/link\/[A-Za-z0-9]+$/);

  // A stranger opens the link: a guest account with the chat with Anna, at once.
  const guest = await (await browser.newContext()).newPage();
  // The app never asks for what guests are refused (docs/api.md): contacts, chat creation, join, find, staff.
  const refused: string[] = [];
  guest.on('response', (response) => {
    if (response.status() === 403) refused.push(`${response.request().method()} ${new URL(response.url()).pathname}`);
  });
  await guest.goto(new URL(link).pathname);
  await expect(guest.getByRole('heading', { name: 'Anna' })).toBeVisible();
  await send(guest, 'Hello from a guest');
  await anna.getByRole('tab', { name: 'Chats' }).click();
  await expect(anna.getByRole('link', { name: /Hello from a guest/ })).toBeVisible();

  // Guests have Chats and Profile; the rest asks them to sign in.
  await guest.getByRole('tab', { name: 'Contacts' }).click();
  const modal = guest.getByRole('dialog', { name: 'Sign in with your phone' });
  await expect(modal).toBeVisible();
  await modal.getByRole('button', { name: 'Close' }).click();
  await guest.getByRole('tab', { name: 'Chats' }).click();
  await guest.getByRole('button', { name: 'New contact' }).click();
  await expect(modal).toBeVisible();
  await modal.getByRole('button', { name: 'Close' }).click();
  // A reload starts the session again: still nothing refused.
  await guest.reload();
  await expect(guest.getByRole('heading', { name: 'Anna' })).toBeVisible();
  await expect(guest.getByRole('log', { name: 'Messages' }).getByText('Hello from a guest')).toBeVisible();
  expect(refused).toEqual([]);
  await guest.getByRole('tab', { name: 'Chats' }).click();
  await guest.getByRole('button', { name: 'New contact' }).click();
  await expect(modal).toBeVisible();

  // They sign in with a phone: a full account that still has the chat.
  const phone = newPhone();
  await modal.getByLabel('Phone number').fill(phone);
  await modal.getByRole('button', { name: 'Send code' }).click();
  await modal.getByLabel('Code').fill(await codeFor(guest.request, phone));
  await modal.getByRole('button', { name: 'Sign in' }).click();
  await guest.getByRole('tab', { name: 'Contacts' }).click();
  await expect(guest.getByRole('button', { name: 'New contact' })).toBeVisible();
  await guest.getByRole('tab', { name: 'Chats' }).click();
  await guest.getByRole('link', { name: /Anna/ }).click();
  await expect(guest.getByRole('log', { name: 'Messages' }).getByText('Hello from a guest')).toBeVisible();
  await guest.getByRole('tab', { name: 'Profile' }).click();
  await expect(guest.getByLabel('Your invite link')).toBeVisible();
});

test('an existing person who opens an invite link gets the chat with the inviter', async ({ browser }) => {
  const anna = await (await browser.newContext()).newPage();
  const boris = await (await browser.newContext()).newPage();
  await signUpInBrowser(anna, 'Anna');
  await signUpInBrowser(boris, 'Boris');
  await anna.getByRole('tab', { name: 'Profile' }).click();
  const link = await anna.getByLabel('Your invite link').inputValue();
  await boris.goto(new URL(link).pathname);
  await expect(boris.getByRole('heading', { name: 'Anna' })).toBeVisible();
  await boris.getByRole('tab', { name: 'Contacts' }).click();
  await expect(personRow(boris, 'Anna')).toBeVisible();
});
