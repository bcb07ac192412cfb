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
