import { expect, test } from './test';
import { addContact, annaBorisAndVika, createGroup, messageAction, messageRow, openChatWith, send } from './fixtures';

// Issue 14: one tick once the server has a message, two once the other person read it; in a group the sender
// sees who read it.
test('read receipts: two ticks when the other person reads, and "Read by" with who in a group', async ({ browser }) => {
  const { anna, boris, vika, phones } = await annaBorisAndVika(browser);
  await addContact(anna, phones.boris, 'Boris');
  await addContact(anna, phones.vika, 'Vika');

  // Private chat: Boris is on his chat list, so Anna's message is stored but unread.
  await openChatWith(anna, 'Boris');
  await send(anna, 'Are you there?');
  const tick = messageRow(anna, 'Are you there?');
  await expect(boris.getByRole('link', { name: /Anna/ })).toContainText('Are you there?');
  await expect(tick.getByRole('img', { name: 'Sent' })).toBeVisible();
  await boris.getByRole('link', { name: /Anna/ }).click();
  await expect(messageRow(boris, 'Are you there?')).toBeVisible();
  await expect(tick.getByRole('img', { name: 'Read' })).toBeVisible();
  // It stays read after a reload (the chat list carries how far Boris read).
  await anna.reload();
  await expect(messageRow(anna, 'Are you there?').getByRole('img', { name: 'Read' })).toBeVisible();

  // A group of three: Boris reads, Vika does not (yet).
  await createGroup(anna, 'Book club', ['Boris', 'Vika']);
  await send(anna, 'Chapter three by Friday');
  await expect(vika.getByRole('link', { name: /Book club/ })).toContainText('Chapter three by Friday');

  await messageAction(anna, 'Chapter three by Friday', 'Read by');
  const nobody = anna.getByRole('dialog', { name: 'Read by 0' });
  await expect(nobody.getByText('Nobody has read it yet.')).toBeVisible();
  await nobody.getByRole('button', { name: 'Close' }).click();

  await boris.getByRole('tab', { name: 'Chats' }).click();
  await boris.getByRole('link', { name: /Book club/ }).click();
  await expect(messageRow(boris, 'Chapter three by Friday')).toBeVisible();
  await expect(messageRow(anna, 'Chapter three by Friday').getByRole('img', { name: 'Read' })).toBeVisible();
  await messageAction(anna, 'Chapter three by Friday', 'Read by');
  const readers = anna.getByRole('dialog', { name: 'Read by 1' });
  const listed = readers.getByRole('list', { name: 'Read by 1' }).getByRole('listitem');
  await expect(listed).toHaveCount(1);
  await expect(listed.getByText('Boris', { exact: true })).toBeVisible();
  await readers.getByRole('button', { name: 'Close' }).click();

  // Boris may not ask who read Anna's message: the item is only on one's own messages.
  await messageRow(boris, 'Chapter three by Friday').hover();
  await messageRow(boris, 'Chapter three by Friday').getByRole('button', { name: 'Message actions' }).click();
  await expect(boris.getByRole('menu', { name: 'Message actions' })).toBeVisible();
  await expect(boris.getByRole('menuitem', { name: 'Read by' })).toHaveCount(0);
});
