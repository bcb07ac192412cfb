import { expect, test } from './test';
import { annaAndBoris, chatHeader } from './fixtures';

// Issue 14: online / last seen in a private chat's header, live, and hidden when the person chooses so.
test('presence: online while the other person has the app open, last seen once they leave, only "recently" when they hide it', async ({ browser }) => {
  const { anna, boris } = await annaAndBoris(browser);
  const header = chatHeader(anna, 'Boris');
  await expect(header).toContainText('online');

  // Boris leaves the app: his live connection closes.
  await boris.goto('about:blank');
  await expect(header).toContainText('last seen just now');
  await boris.goto('/');
  await expect(header).toContainText('online');

  // He hides when he was last online: Anna sees only roughly.
  await boris.getByRole('tab', { name: 'Profile' }).click();
  await boris.getByRole('combobox', { name: 'Who sees when I was last online' }).selectOption({ label: 'Nobody' });
  await expect(header).toContainText('last seen recently');
  await anna.reload();
  await expect(chatHeader(anna, 'Boris')).toContainText('last seen recently');
});
