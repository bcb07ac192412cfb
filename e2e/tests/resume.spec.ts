import { expect, test, type WebSocketRoute } from './test';
import { newPhone, personRow, signUpThroughApi } from './fixtures';

test('a dropped live connection resumes: every message sent meanwhile arrives once, in order, without a reload', async ({ browser }) => {
  const anna = await (await browser.newContext()).newPage();
  const boris = await (await browser.newContext()).newPage();

  // Boris's live-event socket goes through the test, which can cut it and keep it cut.
  let cut = false;
  const open = new Set<WebSocketRoute>();
  await boris.routeWebSocket(/\/api\/user\/flow/, (socket) => {
    if (cut) {
      void socket.close({ code: 1006, reason: 'network down' });
      return;
    }
    open.add(socket);
    socket.connectToServer();
  });

  const borisPhone = newPhone();
  await signUpThroughApi(anna, 'Anna');
  await signUpThroughApi(boris, 'Boris', borisPhone);
  await anna.getByRole('tab', { name: 'Contacts' }).click();
  await anna.getByRole('button', { name: 'New contact' }).click();
  await anna.getByRole('dialog').getByLabel('Phone number').fill(borisPhone);
  await anna.getByRole('dialog').getByLabel('Name', { exact: true }).fill('Boris');
  await anna.getByRole('dialog').getByRole('button', { name: 'Add contact' }).click();
  await personRow(anna, 'Boris').click();
  await anna.getByRole('textbox', { name: 'Message' }).fill('before the cut');
  await anna.keyboard.press('Enter');
  const row = boris.getByRole('link', { name: /Anna/ });
  await expect(row).toContainText('before the cut');

  // The network drops for Boris; Anna writes three messages.
  cut = true;
  for (const socket of open) await socket.close({ code: 1006, reason: 'network down' });
  open.clear();
  for (const text of ['one', 'two', 'three']) {
    await anna.getByRole('textbox', { name: 'Message' }).fill(text);
    await anna.keyboard.press('Enter');
    await expect(anna.getByRole('log', { name: 'Messages' }).getByText(text, { exact: true }).locator('..').getByLabel('Sent')).toBeVisible();
  }
  await boris.waitForTimeout(1500);
  await expect(row).toContainText('before the cut');
  await expect(boris.getByRole('status').filter({ hasText: /Reconnecting|Connecting/ })).toBeVisible();

  // The network is back: the client resumes from its last seq and catches up.
  cut = false;
  await expect(row).toContainText('three', { timeout: 40_000 });
  await expect(row.getByLabel('4 unread messages')).toBeVisible();
  await row.click();
  await expect(boris.getByRole('log', { name: 'Messages' }).getByRole('paragraph')).toHaveText(['before the cut', 'one', 'two', 'three']);
});
