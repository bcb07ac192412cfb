import { expect, test, type Page } from './test';
import { annaAndBoris, messageAction, messageRow, send } from './fixtures';

async function deleteMessage(page: Page, text: string): Promise<void> {
  await messageAction(page, text, 'Delete');
  await page.getByRole('dialog', { name: 'Delete this message?' }).getByRole('button', { name: 'Delete' }).click();
}

// Issue 9: deleting from the message menu sometimes left the message on screen, and deleting a chat's only
// message left the other side's preview at "No messages yet" (spec §4: "Message deleted").
test('deleting messages from the menu removes each at once on both sides, while others keep arriving', async ({ browser }) => {
  const { anna, boris } = await annaAndBoris(browser);
  const texts = Array.from({ length: 12 }, (_, i) => `note ${i + 1}`);
  for (const text of texts) await send(anna, text);
  await boris.getByRole('link', { name: /Anna/ }).click();
  await expect(messageRow(boris, 'note 12')).toBeVisible();

  // The newest, a middle one, and the oldest shown — each gone at once on Anna's screen and on Boris's.
  for (const text of ['note 12', 'note 6', 'note 1']) {
    await messageRow(anna, text).scrollIntoViewIfNeeded();
    await deleteMessage(anna, text);
    await expect(messageRow(anna, text)).toHaveCount(0);
    await expect(messageRow(boris, text)).toHaveCount(0);
  }
  // A delete confirmed while a new message arrives (the list follows it) still happens.
  await messageAction(anna, 'note 11', 'Delete');
  await boris.getByRole('textbox', { name: 'Message' }).fill('a reply meanwhile');
  await boris.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(messageRow(anna, 'a reply meanwhile')).toBeVisible();
  await anna.getByRole('dialog', { name: 'Delete this message?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(messageRow(anna, 'note 11')).toHaveCount(0);
  await expect(messageRow(boris, 'note 11')).toHaveCount(0);
  await expect(boris.getByRole('link', { name: /Anna/ })).toContainText('a reply meanwhile');
  await expect(anna.getByRole('alert')).toHaveCount(0);
});

test('deleting the only message of a chat shows "Message deleted" as the other side’s preview', async ({ browser }) => {
  const { anna, boris } = await annaAndBoris(browser);
  await send(anna, 'only this one');
  const row = boris.getByRole('link', { name: /Anna/ });
  await expect(row).toContainText('only this one');
  await deleteMessage(anna, 'only this one');
  await expect(messageRow(anna, 'only this one')).toHaveCount(0);
  await expect(row).toContainText('Message deleted');
  await expect(row).not.toContainText('only this one');
  await anna.getByRole('tab', { name: 'Chats' }).click();
  await expect(anna.getByRole('link', { name: /Boris/ })).toContainText('Message deleted');
});
