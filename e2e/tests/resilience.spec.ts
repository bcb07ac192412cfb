import { expect, test } from './test';
import { signUpThroughApi } from './fixtures';

test('a remote whose files are unreachable shows a fallback in its place while the rest works', async ({ page }) => {
  await page.route('**/remotes/mf-calls/**', (route) => route.abort());
  await signUpThroughApi(page, 'Dora');

  await page.getByRole('tab', { name: 'Calls' }).click();
  const panel = page.getByRole('tabpanel');
  await expect(panel.getByText('This part of Messenger could not be loaded.')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Try again' })).toBeVisible();

  // The rest of the product is unaffected.
  await page.getByRole('tab', { name: 'Contacts' }).click();
  await expect(page.getByRole('button', { name: 'New contact' })).toBeVisible();
  await page.getByRole('tab', { name: 'Profile' }).click();
  await expect(page.getByRole('heading', { name: 'Dora' })).toBeVisible();

  // Back on the tab, the remote is asked for again (still unreachable: the fallback again).
  await page.getByRole('tab', { name: 'Calls' }).click();
  await expect(page.getByRole('tabpanel').getByText('This part of Messenger could not be loaded.')).toBeVisible();
  // Once the remote is reachable again, Try again loads it without reloading the page.
  await page.unroute('**/remotes/mf-calls/**');
  await page.getByRole('tabpanel').getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByText('No calls yet. Calls you make and receive will appear here.')).toBeVisible();
});

test('with the messenger remote down, sign-in, the side bar and the other remotes still work', async ({ page }) => {
  await page.route('**/remotes/mf-messenger/**', (route) => route.abort());
  await page.goto('/login');
  await expect(page.getByLabel('Phone number')).toBeVisible();
  // Sign-in is the shell's own, so it works; the chats list is where the fallback appears.
  const { codeFor, newPhone } = await import('./fixtures');
  const phone = newPhone();
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Code').fill(await codeFor(page.request, phone));
  await page.getByRole('button', { name: 'Skip' }).click();
  await expect(page.getByRole('tabpanel').getByText('This part of Messenger could not be loaded.')).toBeVisible();
  await page.getByRole('tab', { name: 'Calls' }).click();
  await expect(page.getByText('No calls yet. Calls you make and receive will appear here.')).toBeVisible();
});
