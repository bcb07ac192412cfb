import { expect, test } from './test';
import { addContact, annaAndBoris, messageAction, messageRow, namedByContent, newPhone, openChatWith, send, signUpThroughApi } from './fixtures';

test('reply, forward and delete', async ({ browser }) => {
  const anna = await (await browser.newContext()).newPage();
  const boris = await (await browser.newContext()).newPage();
  const carl = await (await browser.newContext()).newPage();
  const borisPhone = newPhone();
  const carlPhone = newPhone();
  await signUpThroughApi(anna, 'Anna');
  await signUpThroughApi(boris, 'Boris', borisPhone);
  await signUpThroughApi(carl, 'Carl', carlPhone);
  await addContact(anna, borisPhone, 'Boris');
  await addContact(anna, carlPhone, 'Carl');
  await openChatWith(anna, 'Carl');
  await send(anna, 'Hi Carl');
  await openChatWith(anna, 'Boris');
  await send(anna, 'The meeting is at 10');
  await send(anna, 'Bring the slides');

  // Boris replies to the first message; the quote shows and leads back to it.
  await boris.getByRole('link', { name: /Anna/ }).click();
  await messageAction(boris, 'The meeting is at 10', 'Reply');
  await expect(boris.getByRole('group', { name: 'Reply to Anna' })).toBeVisible();
  await send(boris, 'See you there');
  const reply = messageRow(anna, 'See you there');
  const quote = namedByContent(reply, 'Anna', 'Show the message from Anna');
  await expect(quote).toHaveAccessibleName('Anna The meeting is at 10');
  await quote.click();
  await expect(messageRow(anna, 'The meeting is at 10').locator('.msg-flash')).toBeVisible();

  // Anna forwards "Bring the slides" to Carl.
  await messageAction(anna, 'Bring the slides', 'Forward');
  const forward = anna.getByRole('dialog', { name: 'Forward to…' });
  await forward.getByRole('checkbox', { name: 'Carl' }).check();
  await forward.getByRole('button', { name: 'Forward to 1 chat' }).click();
  await carl.getByRole('link', { name: /Anna/ }).click();
  const forwarded = messageRow(carl, 'Bring the slides');
  await expect(forwarded).toContainText('Forwarded from Anna');

  // Anna deletes "Bring the slides" in the chat with Boris; it disappears on both screens and from the preview.
  await messageAction(anna, 'Bring the slides', 'Delete');
  await anna.getByRole('dialog', { name: 'Delete this message?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(messageRow(anna, 'Bring the slides')).toHaveCount(0);
  await expect(messageRow(boris, 'Bring the slides')).toHaveCount(0);
  await expect(messageRow(boris, 'The meeting is at 10')).toBeVisible();
  // Only Anna's own messages offer Delete to Boris.
  await messageRow(boris, 'The meeting is at 10').hover();
  await messageRow(boris, 'The meeting is at 10').getByRole('button', { name: 'Message actions' }).click();
  await expect(boris.getByRole('menuitem', { name: 'Delete' })).toHaveCount(0);
  await expect(boris.getByRole('menuitem', { name: 'Copy' })).toBeVisible();
});

test('auto-delete: a message sent with a 5 s timer disappears on both screens', async ({ browser }) => {
  const { anna, boris } = await annaAndBoris(browser);
  await send(anna, 'This one stays');

  await anna.getByRole('button', { name: 'Auto-delete timer' }).click();
  const dialog = anna.getByRole('dialog', { name: 'Auto-delete timer' });
  await expect(dialog.getByRole('radio')).toHaveCount(13);
  await dialog.getByRole('radio', { name: '5 seconds' }).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(anna.getByText(/auto-delete after 5 seconds/)).toBeVisible();

  await boris.getByRole('link', { name: /Anna/ }).click();
  await expect(boris.getByText(/auto-delete after 5 seconds/)).toBeVisible();
  await send(anna, 'This one vanishes');
  await expect(messageRow(boris, 'This one vanishes')).toBeVisible();
  await expect(messageRow(anna, 'This one vanishes')).toHaveCount(0, { timeout: 9000 });
  await expect(messageRow(boris, 'This one vanishes')).toHaveCount(0, { timeout: 9000 });
  await expect(messageRow(boris, 'This one stays')).toBeVisible();
  // Gone on the server too: a reload does not bring it back.
  await boris.reload();
  await expect(messageRow(boris, 'This one stays')).toBeVisible();
  await expect(messageRow(boris, 'This one vanishes')).toHaveCount(0);
});
