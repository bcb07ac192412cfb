import { CLUSTER, expect, test } from './test';
import { ADMIN_PHONE, THIRD_ADMIN_PHONE, chatHeader, codeFor, contentInset, newPhone, send, signInStaff, signUpAdminInBrowser, signUpInBrowser } from './fixtures';

test('admin and manager: a manager is added, signs in with passwords, runs a secret chat; the admin oversees it', CLUSTER, async ({ browser }) => {
  const admin = await (await browser.newContext()).newPage();
  await signUpAdminInBrowser(admin, 'Ada Admin', ADMIN_PHONE);

  // The admin adds a manager and copies their credentials.
  const staffBar = admin.getByRole('navigation', { name: 'Staff' });
  await staffBar.getByRole('link', { name: 'Employees' }).click();
  await expect(admin.getByRole('heading', { name: 'Employees' })).toBeVisible();
  await admin.getByRole('button', { name: 'Add manager' }).click();
  const managerPhone = newPhone();
  const add = admin.getByRole('dialog', { name: 'Add a manager' });
  await add.getByLabel('Phone', { exact: true }).fill(managerPhone);
  await add.getByLabel('Name', { exact: true }).fill('Mona Manager');
  await add.getByRole('button', { name: 'Add' }).click();
  const credentials = admin.getByRole('dialog', { name: 'Sign-in details' });
  const codes = credentials.locator('code');
  const password = (await codes.nth(0).textContent())!;
  const extra = (await codes.nth(1).textContent())!;
  await credentials.getByRole('button', { name: 'Done' }).click();
  await expect(admin.getByRole('row', { name: /Mona Manager/ })).toBeVisible();
  await expect(admin.getByRole('combobox', { name: 'Role of Mona Manager' })).toHaveValue('1');

  // The manager signs in with phone, password and extra password (no SMS code for staff).
  const manager = await (await browser.newContext()).newPage();
  await signInStaff(manager, managerPhone, password, extra);
  await manager.getByRole('button', { name: 'New secret chat' }).click();
  await manager.getByRole('dialog', { name: 'New secret chat' }).getByLabel('Group name').fill('Sales desk');
  await manager.getByRole('dialog', { name: 'New secret chat' }).getByRole('button', { name: 'Create' }).click();
  await chatHeader(manager, 'Sales desk').click();
  const code = (await manager.getByRole('region', { name: 'Invite code' }).locator('code').textContent())!.trim();
  await manager.getByRole('tab', { name: 'Profile' }).click();
  const link = await manager.getByLabel('Your invite link').inputValue();

  // Someone new arrives through the manager's invite link, signs in with a phone, and joins the secret chat.
  const user = await (await browser.newContext()).newPage();
  await user.goto(new URL(link).pathname);
  await expect(user.getByRole('heading', { name: 'Mona Manager' })).toBeVisible();
  await user.getByRole('tab', { name: 'Contacts' }).click();
  const signIn = user.getByRole('dialog', { name: 'Sign in with your phone' });
  const userPhone = newPhone();
  await signIn.getByLabel('Phone number').fill(userPhone);
  await signIn.getByRole('button', { name: 'Send code' }).click();
  await signIn.getByLabel('Code').fill(await codeFor(user.request, userPhone));
  await signIn.getByRole('button', { name: 'Sign in' }).click();
  await user.getByRole('tab', { name: 'Chats' }).click();
  await user.getByRole('button', { name: 'Join by code' }).click();
  await user.getByRole('dialog', { name: 'Join a chat' }).getByLabel('Chat code').fill(code);
  await user.getByRole('dialog', { name: 'Join a chat' }).getByRole('button', { name: 'Join' }).click();
  await expect(user.getByRole('heading', { name: 'Sales desk' })).toBeVisible();
  await send(user, 'Hello sales');

  // The admin finds it among the secret chats, reads it without being in it, and deletes it.
  await staffBar.getByRole('link', { name: 'Chats' }).click();
  await admin.getByRole('switch', { name: 'Show secret chats' }).check();
  // The switch's row is inset like the rows around it, not flush with the side bar's edges.
  const toggleRow = admin.locator('label', { has: admin.getByRole('switch', { name: 'Show secret chats' }) });
  const toggleInset = await contentInset(toggleRow);
  expect(toggleInset.left).toBeGreaterThanOrEqual(12);
  expect(toggleInset.right).toBeGreaterThanOrEqual(12);
  await admin.getByRole('link', { name: /Sales desk/ }).click();
  await expect(admin.getByRole('log', { name: 'Messages' }).getByText('Hello sales')).toBeVisible();
  await expect(admin.getByRole('note')).toContainText('as an administrator');
  const noteInset = await contentInset(admin.getByRole('note'));
  expect(noteInset.left).toBeGreaterThanOrEqual(12);
  expect(noteInset.right).toBeGreaterThanOrEqual(12);
  await expect(admin.getByRole('textbox', { name: 'Message' })).toHaveCount(0);
  await admin.getByRole('button', { name: 'Delete chat' }).click();
  await admin.getByRole('dialog', { name: 'Delete this chat?' }).getByRole('button', { name: 'Delete chat' }).click();
  await expect(admin.getByRole('link', { name: /Sales desk/ })).toHaveCount(0);
  await expect(user.getByText("This chat isn't available anymore.")).toBeVisible();

  // The statistics show the manager with the one person they brought in.
  await staffBar.getByRole('link', { name: 'Statistics' }).click();
  const board = admin.getByRole('region', { name: 'Managers leaderboard' });
  await expect(board.getByRole('row', { name: /Mona Manager/ })).toContainText('1');
  await expect(admin.getByRole('img', { name: /Chart of new users/ })).toBeVisible();
});

test('people who are not admins opening /statistics or /employees are sent to the chats', async ({ page }) => {
  await signUpInBrowser(page, 'Uma User');
  for (const path of ['/statistics', '/employees', '/files']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('navigation', { name: 'Staff' })).toHaveCount(0);
    await expect(page.getByRole('tab', { name: 'Chats' })).toBeVisible();
  }
});

test('with the staff remote unreachable, staff screens show a fallback and chatting still works', async ({ browser }) => {
  const page = await (await browser.newContext()).newPage();
  await page.route('**/remotes/mf-staff/**', (route) => route.abort());
  await signUpAdminInBrowser(page, 'Sam Staff', THIRD_ADMIN_PHONE);
  await page.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'Statistics' }).click();
  await expect(page.getByText('This part of Messenger could not be loaded.')).toBeVisible();
  await page.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'Chats' }).click();
  await expect(page.getByRole('button', { name: 'New contact' })).toBeVisible();
});
