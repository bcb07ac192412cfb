import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { randomInt } from 'node:crypto';

/** The phone of the run's top admin (the server gets it as ADMIN_PHONES). */
export const ADMIN_PHONE = '+4915100000999';

/** A valid mobile number nobody else in this run has. */
export function newPhone(): string {
  return `+49151${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
}

/** The latest code the dev SMS provider "sent" to a phone. */
export async function codeFor(request: APIRequestContext, phone: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const response = await request.get(`/api/dev/sms?phone=${encodeURIComponent(phone)}`);
      code = response.ok() ? ((await response.json()) as { code: string }).code : undefined;
      return code;
    })
    .toMatch(/^\d{6}$/);
  return code!;
}

/**
 * Signs a new person in through the real screens, as someone would: phone, the code from the dev outbox, then
 * their name on the profile step. Ends on the chats.
 */
export async function signUpInBrowser(page: Page, name: string, phone = newPhone()): Promise<{ phone: string }> {
  await page.goto('/login');
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Continue' }).click();
  const code = await codeFor(page.request, phone);
  await page.getByLabel('Code').fill(code);
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('tab', { name: 'Chats' })).toHaveAttribute('aria-selected', 'true');
  return { phone };
}
