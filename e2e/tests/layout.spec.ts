import { expect, test } from './test';
import { addContact, messageAction, openChatWith, send, signUpThroughApi } from './fixtures';

const overlaps = (a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('on a 375 px phone the chat header shows the other person\'s presence whole, and toasts never cover the Send button', async ({ browser }) => {
  const borisContext = await browser.newContext();
  const { phone: borisPhone } = await signUpThroughApi(await borisContext.newPage(), 'Boris');
  // Boris leaves: his header line becomes the longer "last seen …".
  await borisContext.close();
  const anna = await (await browser.newContext({ viewport: { width: 375, height: 740 }, permissions: ['clipboard-read', 'clipboard-write'] })).newPage();
  await signUpThroughApi(anna, 'Anna');
  await addContact(anna, borisPhone, 'Boris');
  await openChatWith(anna, 'Boris');

  const subtitle = anna.locator('.msg-chat-subtitle');
  await expect(subtitle).toHaveText(/^last seen /);
  // Not cut with an ellipsis: the text fits its box, and the box is inside the screen.
  expect(await subtitle.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  const box = (await subtitle.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(375);
  // Every header action is still on screen.
  for (const name of ['Search in this chat', 'Delete chat']) {
    const action = (await anna.getByRole('button', { name }).boundingBox())!;
    expect(action.x + action.width, name).toBeLessThanOrEqual(375);
  }

  // A toast (copying a message) while there is text in the composer: the Send button stays uncovered.
  await send(anna, 'Copy me');
  await anna.getByRole('textbox', { name: 'Message' }).fill('Draft');
  await messageAction(anna, 'Copy me', 'Copy');
  const toast = anna.getByRole('region', { name: 'Notifications' }).getByText('Copied');
  await expect(toast).toBeVisible();
  const sendBox = (await anna.getByRole('button', { name: 'Send' }).boundingBox())!;
  const regionBox = (await anna.getByRole('region', { name: 'Notifications' }).boundingBox())!;
  expect(overlaps(regionBox, sendBox), `notifications ${JSON.stringify(regionBox)} over Send ${JSON.stringify(sendBox)}`).toBe(false);
  const composerBox = (await anna.getByRole('textbox', { name: 'Message' }).boundingBox())!;
  expect(overlaps(regionBox, composerBox)).toBe(false);
});
