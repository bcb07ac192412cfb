import { expect, test } from '@playwright/test';
import { ADMIN_PHONE, signUpInBrowser } from './fixtures';

test('an admin from ADMIN_PHONES reaches the statistics through the admin bar', async ({ page }) => {
  await signUpInBrowser(page, 'Ada Admin', ADMIN_PHONE);
  const staffBar = page.getByRole('navigation', { name: 'Staff' });
  await staffBar.getByRole('link', { name: 'Statistics' }).click();
  await expect(page).toHaveURL(/\/statistics$/);
  await expect(page.getByRole('heading', { name: 'Statistics' })).toBeVisible();
  const figures = page.getByRole('region', { name: 'Figures for the period' });
  await expect(figures.getByText('New users')).toBeVisible();
  // At least the admin joined during the period.
  await expect(figures.locator('dd').first()).not.toHaveText('0');
  await staffBar.getByRole('link', { name: 'Chats' }).click();
  await expect(page.getByRole('tab', { name: 'Chats' })).toBeVisible();
});

test('someone who is not an admin opening /statistics is sent to the chats', async ({ page }) => {
  await signUpInBrowser(page, 'Uma User');
  await page.goto('/statistics');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('navigation', { name: 'Staff' })).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'Chats' })).toBeVisible();
});
