import { expect, test } from './test';
import { signUpThroughApi } from './fixtures';

test('the page runs no injected inline script and cannot be framed by another site', async ({ page, cspViolations }) => {
  await page.goto('/login');
  await expect(page.getByLabel('Phone number')).toBeVisible();
  // What an XSS would do: add a script element with inline code. The policy refuses to run it.
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.injected = true';
    document.body.append(script);
  });
  await expect.poll(() => cspViolations.some((line) => line.includes('script-src'))).toBe(true);
  expect(await page.evaluate(() => (window as unknown as { injected?: boolean }).injected)).toBeUndefined();

  // Another origin (127.0.0.1 is not localhost) puts the app in a frame: the browser refuses to show it.
  const framed = new URL('/login', page.url());
  await page.goto(`http://127.0.0.1:${framed.port}/api/health`);
  await page.setContent(`<iframe title="framed" src="${framed.href}"></iframe>`);
  await expect.poll(() => cspViolations.some((line) => line.includes('frame-ancestors'))).toBe(true);
  await expect(page.frameLocator('iframe').getByLabel('Phone number')).toHaveCount(0);
  cspViolations.length = 0; // both were provoked on purpose
});

test('logging out in one tab takes the person’s chats off their other tab at once', async ({ browser }) => {
  const context = await browser.newContext();
  const first = await context.newPage();
  await signUpThroughApi(first, 'Anna');
  await expect(first.getByRole('tab', { name: 'Chats' })).toBeVisible();
  const second = await context.newPage();
  await second.goto('/profile');
  await second.getByRole('button', { name: 'Log out' }).click();
  await second.getByRole('dialog', { name: 'Log out?' }).getByRole('button', { name: 'Log out' }).click();
  await expect(second).toHaveURL(/\/login/);
  // The first tab was not touched: it follows the shared sign-in, to the sign-in page.
  await expect(first).toHaveURL(/\/login/);
  await expect(first.getByRole('tab', { name: 'Chats' })).toHaveCount(0);
  await context.close();
});
