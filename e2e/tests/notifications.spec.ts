import { expect, test } from './test';
import { annaAndBoris, namedByContent, send } from './fixtures';

// Spec §4: a message to a chat that is not open shows a toast, which opens the chat; with "Hide message text in
// notifications" on, the toast says only that a message came.
test('a message to a chat not open shows a toast that opens it; hidden text stays hidden', async ({ browser }) => {
  const { anna, boris } = await annaAndBoris(browser);
  await send(anna, 'Hi Boris');
  await boris.getByRole('link', { name: /Anna/ }).click();
  await anna.getByRole('tab', { name: 'Profile' }).click();

  await send(boris, 'Are you there?');
  const toasts = anna.getByRole('region', { name: 'Notifications' });
  const toast = namedByContent(toasts, 'Boris', 'Open the chat');
  await expect(toast).toHaveAccessibleName('Boris Are you there?');
  await toast.click();
  await expect(anna.getByRole('heading', { name: 'Boris' })).toBeVisible();
  await expect(anna.getByRole('log', { name: 'Messages' }).getByText('Are you there?')).toBeVisible();

  await anna.getByRole('tab', { name: 'Profile' }).click();
  const hideText = anna.getByRole('switch', { name: 'Hide message text in notifications' });
  await hideText.click();
  await expect(hideText).toBeChecked();
  await send(boris, 'The secret plan');
  await expect(namedByContent(toasts, 'Boris', 'Open the chat')).toHaveAccessibleName('Boris New message');
  await expect(toasts).not.toContainText('The secret plan');
});
