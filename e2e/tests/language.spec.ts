import { expect, test } from './test';
import { signUpInBrowser } from './fixtures';

test('switching the language translates the shell and the remotes, and is remembered', async ({ page }) => {
  await signUpInBrowser(page, 'Emil');
  await page.getByRole('tab', { name: 'Profile' }).click();
  await page.getByLabel('Language').selectOption('de');

  await expect(page.getByRole('tab', { name: 'Kontakte' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Profil' })).toBeVisible();
  await expect(page.getByLabel('Sprache')).toHaveValue('de');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');

  await page.reload();
  await page.getByRole('tab', { name: 'Kontakte' }).click();
  await expect(page.getByRole('button', { name: 'Neuer Kontakt' })).toBeVisible();
});

test('a language whose words cannot be downloaded is not switched to: the screen stays readable and says why', async ({ page }) => {
  await signUpInBrowser(page, 'Fanny');
  // Every app's French strings are unreachable (each language is a file of its own per app).
  await page.route(/\/strings-(common-)?fr-json\.[0-9a-f]+\.js$/, (route) => route.abort());
  await page.getByRole('tab', { name: 'Profile' }).click();
  await page.getByLabel('Language').selectOption('fr');

  await expect(page.getByText('This language could not be loaded. Check the connection and try again.')).toBeVisible();
  await expect(page.getByLabel('Language')).toHaveValue('en');
  await expect(page.getByRole('tab', { name: 'Contacts' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  // Back online, the same choice works.
  await page.unroute(/\/strings-(common-)?fr-json\.[0-9a-f]+\.js$/);
  await page.getByLabel('Language').selectOption('fr');
  await expect(page.getByRole('tab', { name: 'Profil' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
});
