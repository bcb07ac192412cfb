import { expect, test } from './test';
import { addContact, messageRow, newPhone, openChatWith, send, signUpThroughApi } from './fixtures';

// Issue 14: "Anna is typing…" in the other person's chat header and chat list row, live, gone once she sends.
test('the other person sees "is typing" in the header and the chat list while someone writes, until the message comes', async ({ browser }) => {
  const anna = await browser.newContext();
  const boris = await browser.newContext();
  const annaPage = await anna.newPage();
  const borisPage = await boris.newPage();
  const borisPhone = newPhone();
  await signUpThroughApi(annaPage, 'Anna');
  await signUpThroughApi(borisPage, 'Boris', borisPhone);
  await addContact(annaPage, borisPhone, 'Boris');
  await openChatWith(annaPage, 'Boris');
  await send(annaPage, 'hello');

  const row = borisPage.getByRole('link', { name: /Anna/ });
  await row.click();
  await expect(messageRow(borisPage, 'hello')).toBeVisible();
  const typing = borisPage.getByRole('status').filter({ hasText: 'typing' });
  await expect(typing).toHaveCount(0);

  await annaPage.getByRole('textbox', { name: 'Message' }).fill('are you coming');
  await expect(typing).toHaveText('Anna is typing…');
  await expect(row).toContainText('Anna is typing…');
  // Anna sees no indicator of her own.
  await expect(annaPage.getByRole('status').filter({ hasText: 'typing' })).toHaveCount(0);

  await annaPage.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(messageRow(borisPage, 'are you coming')).toBeVisible();
  await expect(typing).toHaveCount(0);
  await expect(row).not.toContainText('typing');
  await expect(row).toContainText('are you coming');

  await anna.close();
  await boris.close();
});
