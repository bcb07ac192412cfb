import { expect, test } from './test';
import { FIFTH_ADMIN_PHONE, addContact, chatHeader, newPhone, openChatWith, signUpAdminInBrowser, signUpThroughApi } from './fixtures';

// Spec §4/§6: an admin blocks someone from their profile panel. The server ends that person's sessions at once:
// their open app goes to the sign-in page, and signing in again is refused until they are unblocked.
test('an admin blocks someone: their open app is signed out at once and signing in is refused, until they are unblocked', async ({ browser }) => {
  const admin = await (await browser.newContext()).newPage();
  const boris = await (await browser.newContext()).newPage();
  const borisPhone = newPhone();
  await signUpAdminInBrowser(admin, 'Ada Admin', FIFTH_ADMIN_PHONE);
  await signUpThroughApi(boris, 'Boris', borisPhone);
  await addContact(admin, borisPhone, 'Boris');
  await openChatWith(admin, 'Boris');
  await chatHeader(admin, 'Boris').click();

  const blocked = admin.getByRole('switch', { name: 'Blocked' });
  // The switch turns once the server has done it (a toast of 3 s says so too).
  await blocked.click();
  await expect(blocked).toBeChecked();
  await expect(boris.getByLabel('Phone number')).toBeVisible();
  // Told why, not left at a blank sign-in page (spec §8).
  await expect(boris.getByRole('alert')).toContainText('This account is blocked.');

  const signIn = async () => {
    await boris.getByLabel('Phone number').fill(borisPhone);
    await boris.getByRole('button', { name: 'Continue' }).click();
  };
  await signIn();
  await expect(boris.getByRole('alert')).toContainText('This account is blocked.');

  await blocked.click();
  await expect(blocked).not.toBeChecked();
  await boris.reload();
  await signIn();
  // No longer refused as blocked: a code is sent, or (his sign-up's code being seconds old) he is asked to wait
  // for the next one.
  await expect(boris.getByLabel('Code').or(boris.getByRole('alert').filter({ hasText: 'A code was sent a moment ago' }))).toBeVisible();
  await expect(boris.getByText('This account is blocked.')).toBeHidden();
});
