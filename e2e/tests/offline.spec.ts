import { expect, test, type WebSocketRoute } from './test';
import { STORED, addContact, annaAndBoris, messageRow, newPhone, openChatWith, signUpThroughApi } from './fixtures';

test('a message written while offline waits, survives a reload, and is delivered once when the connection returns', async ({ browser }) => {
  const anna = await (await browser.newContext()).newPage();
  const boris = await (await browser.newContext()).newPage();
  // Anna's chat socket goes through the test, which can take her "offline".
  let offline = false;
  const open = new Set<WebSocketRoute>();
  await anna.routeWebSocket(/\/api\/chat\/socket/, (socket) => {
    if (offline) {
      void socket.close({ code: 1006, reason: 'offline' });
      return;
    }
    open.add(socket);
    socket.connectToServer();
  });

  const borisPhone = newPhone();
  await signUpThroughApi(anna, 'Anna');
  await signUpThroughApi(boris, 'Boris', borisPhone);
  await addContact(anna, borisPhone, 'Boris');
  await openChatWith(anna, 'Boris');

  offline = true;
  for (const socket of open) await socket.close({ code: 1006, reason: 'offline' });
  open.clear();
  await anna.getByRole('textbox', { name: 'Message' }).fill('Written on the train');
  await anna.getByRole('textbox', { name: 'Message' }).press('Enter');
  const pending = messageRow(anna, 'Written on the train');
  await expect(pending.getByRole('img', { name: 'Sending…' })).toBeVisible();

  // A reload keeps it queued.
  await anna.reload();
  await expect(messageRow(anna, 'Written on the train').getByRole('img', { name: 'Sending…' })).toBeVisible();

  // Back online: sent once, in order, and Boris gets exactly one copy.
  offline = false;
  await expect(messageRow(anna, 'Written on the train').getByRole('img', { name: STORED })).toBeVisible({ timeout: 40_000 });
  await boris.getByRole('link', { name: /Anna/ }).click();
  await expect(messageRow(boris, 'Written on the train')).toHaveCount(1);
  await boris.reload();
  await expect(messageRow(boris, 'Written on the train')).toHaveCount(1);
});

// Issue 9: going offline showed nothing but a clock on the message.
test('losing the network shows that the connection is lost, and that it is back', async ({ browser }) => {
  const { anna } = await annaAndBoris(browser);
  const context = anna.context();
  await expect(anna.getByRole('status').filter({ hasText: /connection|Connect/i })).toHaveCount(0);

  await context.setOffline(true);
  await expect(anna.getByRole('status').filter({ hasText: 'No connection. Reconnecting…' })).toBeVisible();
  await anna.getByRole('textbox', { name: 'Message' }).fill('While the network was gone');
  await anna.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(messageRow(anna, 'While the network was gone').getByRole('img', { name: 'Sending…' })).toBeVisible();

  await context.setOffline(false);
  await expect(anna.getByRole('status').filter({ hasText: 'Connected again' })).toBeVisible({ timeout: 30_000 });
  await expect(anna.getByRole('status').filter({ hasText: 'No connection' })).toHaveCount(0);
  await expect(messageRow(anna, 'While the network was gone').getByRole('img', { name: STORED })).toBeVisible({ timeout: 40_000 });
  await expect(anna.getByRole('status').filter({ hasText: 'Connected again' })).toHaveCount(0);
  await context.close();
});
