import { expect, test } from './test';
import { addContact, newPhone, personRow, signUpThroughApi } from './fixtures';

test("a contact added or deleted in one tab is added or deleted in the person's other tab at once", async ({ browser }) => {
  const anna = await (await browser.newContext()).newPage();
  const boris = await (await browser.newContext()).newPage();
  const borisPhone = newPhone();
  await signUpThroughApi(anna, 'Anna');
  await signUpThroughApi(boris, 'Boris', borisPhone);

  // Anna's second tab, on her contacts (the same browser profile: the same session).
  const other = await anna.context().newPage();
  await other.goto('/');
  await other.getByRole('tab', { name: 'Contacts' }).click();
  const otherList = other.getByRole('list', { name: 'Contacts' });

  await addContact(anna, borisPhone, 'Boris from work');
  await expect(personRow(otherList, 'Boris from work')).toBeVisible();

  await anna.getByRole('button', { name: 'Delete Boris from work from contacts' }).click();
  await anna.getByRole('dialog', { name: 'Delete contact?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(personRow(other, 'Boris from work')).toBeHidden();
  await expect(other.getByText('No contacts yet. Add someone by phone number or username.')).toBeVisible();
});
