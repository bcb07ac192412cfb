import { expect, test } from './test';
import { annaAndBoris, messageAction, messageRow, send } from './fixtures';

// Issue 14: the sender edits a text message (menu, or ↑ in an empty composer); the other person sees the new text
// live, marked "edited"; what was being written before comes back afterwards.
test('editing a message: from its menu and with ↑, live for the other person, marked edited, the draft kept', async ({ browser }) => {
  const { anna, boris } = await annaAndBoris(browser);
  await send(anna, 'See you at seven');
  await boris.getByRole('link', { name: /Anna/ }).click();
  await expect(messageRow(boris, 'See you at seven')).toBeVisible();

  // From the menu, with something half-written in the composer.
  const composer = anna.getByRole('textbox', { name: 'Message' });
  await composer.fill('and bring');
  await messageAction(anna, 'See you at seven', 'Edit');
  const editBox = anna.getByRole('textbox', { name: 'Edit message' });
  await expect(anna.getByRole('group', { name: 'Editing message' })).toContainText('See you at seven');
  await expect(editBox).toBeFocused();
  await expect(editBox).toHaveValue('See you at seven');
  await editBox.fill('See you at eight');
  await editBox.press('Enter');
  await expect(messageRow(anna, 'See you at eight')).toContainText('edited');
  await expect(composer).toHaveValue('and bring');
  await expect(messageRow(boris, 'See you at eight')).toContainText('edited');
  await expect(messageRow(boris, 'See you at seven')).toHaveCount(0);

  // ↑ in the empty composer takes the last message of mine; Esc leaves it as it was.
  await composer.fill('');
  await send(anna, 'Table for two');
  await composer.press('ArrowUp');
  await expect(editBox).toHaveValue('Table for two');
  await editBox.press('Escape');
  await expect(editBox).toHaveCount(0);
  await expect(messageRow(anna, 'Table for two')).not.toContainText('edited');
  await composer.press('ArrowUp');
  await editBox.fill('Table for three');
  await anna.getByRole('button', { name: 'Save' }).click();
  await expect(messageRow(boris, 'Table for three')).toContainText('edited');
  await expect(boris.getByRole('link', { name: /Anna/ })).toContainText('Table for three');

  // Boris cannot edit Anna's message: no such item in its menu.
  await messageRow(boris, 'Table for three').hover();
  await messageRow(boris, 'Table for three').getByRole('button', { name: 'Message actions' }).click();
  await expect(boris.getByRole('menu', { name: 'Message actions' })).toBeVisible();
  await expect(boris.getByRole('menuitem', { name: 'Edit' })).toHaveCount(0);
});

// A message deleted while someone edits it or writes a reply to it: the edit (or the reply) ends and says why.
// Before, the edit stayed open and Save failed with "Message not found"; the reply bar kept quoting a blank.
test('an edit or a reply of a message deleted meanwhile ends, and the person is told why', async ({ browser }) => {
  const { anna, boris } = await annaAndBoris(browser);
  await send(anna, 'Draft plan');
  await send(anna, 'Second note');
  // Anna's other tab, signed in as she is, deletes what her first tab is editing.
  const annaElsewhere = await anna.context().newPage();
  await annaElsewhere.goto(anna.url());
  await expect(messageRow(annaElsewhere, 'Draft plan')).toBeVisible();

  await messageAction(anna, 'Draft plan', 'Edit');
  const editBox = anna.getByRole('textbox', { name: 'Edit message' });
  await editBox.fill('Draft plan, revised');
  await messageAction(annaElsewhere, 'Draft plan', 'Delete');
  await annaElsewhere.getByRole('dialog', { name: 'Delete this message?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(messageRow(anna, 'Draft plan')).toHaveCount(0);
  await expect(editBox).toHaveCount(0);
  await expect(anna.getByRole('status').filter({ hasText: 'The message you were editing was deleted.' })).toBeVisible();
  await expect(anna.getByRole('textbox', { name: 'Message' })).toBeVisible();

  // Boris is answering Anna's other message when she deletes it.
  await boris.getByRole('link', { name: /Anna/ }).click();
  await messageAction(boris, 'Second note', 'Reply');
  const replyBar = boris.getByRole('group', { name: 'Reply to Anna' });
  await expect(replyBar).toContainText('Second note');
  await boris.getByRole('textbox', { name: 'Message' }).fill('About that');
  await messageAction(anna, 'Second note', 'Delete');
  await anna.getByRole('dialog', { name: 'Delete this message?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(replyBar).toHaveCount(0);
  await expect(boris.getByRole('status').filter({ hasText: 'The message you were replying to was deleted.' })).toBeVisible();
  // What he wrote stays, and goes as a plain message.
  await expect(boris.getByRole('textbox', { name: 'Message' })).toHaveValue('About that');
  await boris.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(messageRow(anna, 'About that')).toBeVisible();
});
