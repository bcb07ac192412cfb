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
