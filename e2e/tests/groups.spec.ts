import { CLUSTER, expect, test } from './test';
import { STAFF_PHONE, addContact, chatHeader, newPhone, send, signUpAdminInBrowser, signUpThroughApi } from './fixtures';

test('a group of three: created, renamed, a member added and one removed', CLUSTER, async ({ browser }) => {
  const page = async () => (await browser.newContext()).newPage();
  const [anna, boris, carl, dora] = [await page(), await page(), await page(), await page()];
  const phones = { boris: newPhone(), carl: newPhone(), dora: newPhone() };
  await signUpThroughApi(anna, 'Anna');
  await signUpThroughApi(boris, 'Boris', phones.boris);
  await signUpThroughApi(carl, 'Carl', phones.carl);
  await signUpThroughApi(dora, 'Dora', phones.dora);
  await addContact(anna, phones.boris, 'Boris');
  await addContact(anna, phones.carl, 'Carl');
  await addContact(anna, phones.dora, 'Dora');

  // Anna makes a group with Boris and Carl.
  await anna.getByRole('tab', { name: 'Chats' }).click();
  await anna.getByRole('button', { name: 'New group' }).click();
  const create = anna.getByRole('dialog', { name: 'New group' });
  await expect(create.getByRole('button', { name: 'Create' })).toBeDisabled();
  await create.getByLabel('Group name').fill('Weekend trip');
  await create.getByRole('checkbox', { name: 'Boris' }).check();
  await create.getByRole('checkbox', { name: 'Carl' }).check();
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(anna.getByRole('heading', { name: 'Weekend trip' })).toBeVisible();
  await send(anna, 'Who brings the tent?');

  // Boris and Carl see it live.
  for (const page of [boris, carl]) {
    await page.getByRole('link', { name: /Weekend trip/ }).click();
    await expect(page.getByRole('log', { name: 'Messages' }).getByText('Who brings the tent?')).toBeVisible();
  }

  // Anna renames it; everyone sees the new name.
  await chatHeader(anna, 'Weekend trip').click();
  const panel = anna.getByRole('complementary', { name: 'Group' });
  await panel.getByLabel('Group name').fill('Mountain trip');
  await panel.getByRole('button', { name: 'Save' }).click();
  await expect(anna.getByRole('heading', { name: 'Mountain trip' })).toBeVisible();
  await expect(boris.getByRole('heading', { name: 'Mountain trip' })).toBeVisible();

  // She adds Dora and removes Carl.
  await panel.getByRole('button', { name: 'Add members' }).click();
  const add = anna.getByRole('dialog', { name: 'Add members' });
  await add.getByRole('checkbox', { name: 'Dora' }).check();
  await add.getByRole('button', { name: 'Add' }).click();
  await expect(panel.getByRole('list', { name: 'Members' }).getByText('Dora')).toBeVisible();
  await panel.getByRole('button', { name: 'Remove Carl from the group' }).click();
  await anna.getByRole('dialog', { name: 'Remove from the group?' }).getByRole('button', { name: 'Remove' }).click();
  await expect(panel.getByRole('list', { name: 'Members' }).getByText('Carl')).toHaveCount(0);
  // The owner is listed first.
  await expect(panel.getByRole('list', { name: 'Members' }).getByRole('listitem').first()).toContainText('You');

  // Dora has the group now; Carl does not, and hears nothing more from it.
  await expect(dora.getByRole('link', { name: /Mountain trip/ })).toBeVisible();
  await expect(dora.getByRole('region', { name: 'Notifications' }).getByText('Anna added you to Mountain trip')).toBeVisible();
  await expect(carl.getByText("This chat isn't available anymore.")).toBeVisible();
  await send(anna, 'Dora joins us!');
  await dora.getByRole('link', { name: /Mountain trip/ }).click();
  await expect(dora.getByRole('log', { name: 'Messages' }).getByText('Dora joins us!')).toBeVisible();
  await carl.getByRole('tab', { name: 'Chats' }).click();
  await expect(carl.getByRole('link', { name: /Mountain trip|Weekend trip/ })).toHaveCount(0);
});

test('a secret chat made by staff, joined by its code', CLUSTER, async ({ browser }) => {
  const staff = await (await browser.newContext()).newPage();
  const user = await (await browser.newContext()).newPage();
  await signUpAdminInBrowser(staff, 'Stella Staff', STAFF_PHONE);
  await signUpThroughApi(user, 'Ulf');

  await staff.getByRole('button', { name: 'New secret chat' }).click();
  const dialog = staff.getByRole('dialog', { name: 'New secret chat' });
  await dialog.getByLabel('Group name').fill('Night shift');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(staff.getByRole('heading', { name: 'Night shift' })).toBeVisible();
  await chatHeader(staff, 'Night shift').click();
  const code = (await staff.getByRole('region', { name: 'Invite code' }).locator('code').textContent())!.trim();
  expect(code).toMatch(/^C-[A-Za-z0-9]{10}$/);

  // Ordinary users have no "New secret chat" button, but may join.
  await expect(user.getByRole('button', { name: 'New secret chat' })).toHaveCount(0);
  await user.getByRole('button', { name: 'Join by code' }).click();
  const join = user.getByRole('dialog', { name: 'Join a chat' });
  await join.getByLabel('Chat code').fill('C-123');
  await expect(join.getByRole('button', { name: 'Join' })).toBeDisabled();
  await join.getByLabel('Chat code').fill('C-ZZZZZZZZZZ');
  await join.getByRole('button', { name: 'Join' }).click();
  await expect(join.getByRole('alert')).toBeVisible();
  await join.getByLabel('Chat code').fill(code);
  await join.getByRole('button', { name: 'Join' }).click();
  await expect(user.getByRole('heading', { name: 'Night shift' })).toBeVisible();
  await send(user, 'Reporting for duty');
  await expect(staff.getByRole('log', { name: 'Messages' }).getByText('Reporting for duty')).toBeVisible();

  // The group's link works too: someone else opens {host}/link/{code} and is in.
  const third = await (await browser.newContext()).newPage();
  await signUpThroughApi(third, 'Vera');
  await third.goto(`/link/${code}`);
  await expect(third.getByRole('heading', { name: 'Night shift' })).toBeVisible();
  await expect(third.getByRole('log', { name: 'Messages' }).getByText('Reporting for duty')).toBeVisible();
});
