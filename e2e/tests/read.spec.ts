import { expect, test } from './test';
import { addContact, messageRow, newPhone, openChatWith, send, signUpThroughApi } from './fixtures';

// Issue 9: messages read in the open chat stayed unread on the server (the open chat kept its local count at 0,
// so the read was never sent), and showed up unread after a reload or in another tab.
test('messages read in the open chat are read on the server too: no unread badge after a reload or in another tab', async ({ browser }) => {
  const anna = await browser.newContext();
  const boris = await browser.newContext();
  const annaPage = await anna.newPage();
  const borisPage = await boris.newPage();
  const borisPhone = newPhone();
  await signUpThroughApi(annaPage, 'Anna');
  await signUpThroughApi(borisPage, 'Boris', borisPhone);

  await addContact(annaPage, borisPhone, 'Boris');
  await openChatWith(annaPage, 'Boris');
  await send(annaPage, 'hello');

  // Boris opens the chat: it is read.
  const row = (page: typeof borisPage) => page.getByRole('link', { name: /Anna/ });
  await expect(row(borisPage).getByLabel('1 unread message')).toBeVisible();
  await row(borisPage).click();
  await expect(messageRow(borisPage, 'hello')).toBeVisible();
  await expect(row(borisPage).getByLabel(/unread/)).toHaveCount(0);

  // A second tab of Boris, on the chat list.
  const borisList = await boris.newPage();
  await borisList.goto('/');
  await expect(row(borisList)).toContainText('hello');
  await expect(row(borisList).getByLabel(/unread/)).toHaveCount(0);

  // Anna sends three messages while Boris has the chat open.
  for (const text of ['one', 'two', 'three']) await send(annaPage, text);
  await expect(messageRow(borisPage, 'three')).toBeVisible();

  // The other tab hears that they were read.
  await expect(row(borisList)).toContainText('three');
  await expect(row(borisList).getByLabel(/unread/)).toHaveCount(0);

  // After a reload the server's count says the same.
  await borisList.reload();
  await expect(row(borisList)).toContainText('three');
  await expect(row(borisList).getByLabel(/unread/)).toHaveCount(0);
  await borisPage.reload();
  await expect(messageRow(borisPage, 'three')).toBeVisible();
  await expect(row(borisPage).getByLabel(/unread/)).toHaveCount(0);

  await anna.close();
  await boris.close();
});
