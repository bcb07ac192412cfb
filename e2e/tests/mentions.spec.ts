import { expect, test } from './test';
import { addContact, annaBorisAndVika, createGroup, messageRow } from './fixtures';

// Issue 14: @username completion in a group's composer; the mentioned person is notified even in a muted group,
// and the chat list marks the group with an @ until they read it.
test('mentions: @ completion in a group, a notification through mute, and the @ marker until read', async ({ browser }) => {
  const { anna, boris, vika, phones } = await annaBorisAndVika(browser);
  const username = `boris_${Date.now().toString(36)}`;
  await boris.getByRole('tab', { name: 'Profile' }).click();
  await boris.getByRole('button', { name: 'Edit profile' }).click();
  await boris.getByLabel('Username').fill(username);
  await boris.getByRole('button', { name: 'Save' }).click();
  await expect(boris.getByText(`@${username}`)).toBeVisible();
  await addContact(anna, phones.boris, 'Boris');
  await addContact(anna, phones.vika, 'Vika');

  await createGroup(anna, 'Lunch', ['Boris', 'Vika']);

  // Boris mutes the group and stays on his chat list.
  await boris.getByRole('tab', { name: 'Chats' }).click();
  await boris.getByRole('link', { name: /Lunch/ }).click();
  await boris.getByRole('button', { name: 'Turn off notifications' }).click();
  await expect(boris.getByRole('button', { name: 'Turn on notifications' })).toBeVisible();
  // Back to the list, with no chat open.
  await boris.goto('/');

  // Anna types "@bo": Boris is offered; Enter picks him.
  const composer = anna.getByRole('textbox', { name: 'Message' });
  await composer.fill('');
  await composer.pressSequentially('@bo');
  const suggestions = anna.getByRole('listbox', { name: 'People to mention' });
  await expect(suggestions.getByRole('option')).toHaveCount(1);
  await expect(suggestions.getByRole('option', { name: new RegExp(`Boris @${username}`) })).toHaveAttribute('aria-selected', 'true');
  await composer.press('Enter');
  await expect(suggestions).toHaveCount(0);
  await expect(composer).toHaveValue(`@${username} `);
  await composer.pressSequentially('lunch at one?');
  await composer.press('Enter');
  await expect(messageRow(anna, `@${username} lunch at one?`)).toBeVisible();

  // Boris: a notification although the group is muted, and the @ marker on its row until he opens it.
  const row = boris.getByRole('link', { name: /Lunch/ });
  await expect(row.getByRole('img', { name: 'You were mentioned' })).toBeVisible();
  await expect(boris.getByRole('region', { name: 'Notifications' })).toContainText('lunch at one?');
  // Vika was not mentioned: no marker for her.
  await expect(vika.getByRole('link', { name: /Lunch/ })).toContainText('lunch at one?');
  await expect(vika.getByRole('link', { name: /Lunch/ }).getByRole('img', { name: 'You were mentioned' })).toHaveCount(0);
  await row.click();
  await expect(messageRow(boris, `@${username} lunch at one?`)).toBeVisible();
  await expect(boris.getByRole('link', { name: /Lunch/ }).getByRole('img', { name: 'You were mentioned' })).toHaveCount(0);
});
