import { expect, test } from './test';
import { annaAndBoris, chatHeader, chooseFile, createGroup, makePng, signUpThroughApi } from './fixtures';

// Spec §4 and §9: a new profile picture, cropped square in the browser and stored as a 512×512 JPEG. The cropper
// (cropperjs) is a chunk of its own, fetched when someone sets out to change a picture (issue 13).
test('a new picture: the cropper is fetched only once asked for, a failed fetch can be tried again, and the cropped square is saved', async ({ page }) => {
  // What each script fetched holds: whether cropperjs's code is in it (webpack may put it in a chunk of any name).
  const scripts: Promise<boolean>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.push(response.text().then((code) => code.includes('cropper-crop-box'), () => false));
  });
  const cropperFetched = async () => (await Promise.all(scripts)).some(Boolean);
  await signUpThroughApi(page, 'Anna');
  await page.getByRole('tab', { name: 'Profile' }).click();
  const card = page.getByRole('region', { name: 'Anna' });
  const change = card.getByRole('button', { name: 'Change picture' });
  await expect(change).toBeVisible();
  expect(await cropperFetched()).toBe(false);

  // The cropper cannot be fetched: the person is told, and nothing else changes.
  await page.route('**/avatar-cropper.*.js', (route) => route.abort());
  await chooseFile(change, { name: 'me.png', mimeType: 'image/png', buffer: makePng(300, 200) });
  await expect(card.getByRole('alert')).toHaveText('The picture editor could not be loaded. Try again.');
  await expect(page.getByRole('dialog', { name: 'Crop the picture' })).toBeHidden();

  // Reachable again: the next try fetches it, crops and saves.
  await page.unroute('**/avatar-cropper.*.js');
  await chooseFile(change, { name: 'me.png', mimeType: 'image/png', buffer: makePng(300, 200) });
  const crop = page.getByRole('dialog', { name: 'Crop the picture' });
  // (cropperjs shows the picture twice: under the crop box and inside it.)
  await expect(crop.getByRole('img', { name: 'The picture to crop' }).first()).toBeVisible();
  await expect(card.getByRole('alert')).toBeHidden();
  expect(await cropperFetched()).toBe(true);
  await crop.getByRole('button', { name: 'Save' }).click();
  await expect(crop).toBeHidden();

  // The card shows the stored picture: square, 512 pixels a side, whatever the picked image's shape. (The avatar
  // is decorative, hidden from screen readers beside the name, so it is found by its element.)
  const pictureSize = () => card.locator('.ui-avatar img').evaluate((image: HTMLImageElement) => [image.naturalWidth, image.naturalHeight]).catch(() => [0, 0]);
  await expect.poll(pictureSize).toEqual([512, 512]);
  await page.reload();
  await page.getByRole('tab', { name: 'Profile' }).click();
  await expect.poll(pictureSize).toEqual([512, 512]);
});

test("a group's picture, set by its owner, is what every member's chat list shows", async ({ browser }) => {
  const { anna, boris } = await annaAndBoris(browser);
  await createGroup(anna, 'Weekend trip', ['Boris']);
  await chatHeader(anna, 'Weekend trip').click();
  const panel = anna.getByRole('complementary', { name: 'Group' });
  await chooseFile(panel.getByRole('button', { name: 'Change picture' }), { name: 'trip.png', mimeType: 'image/png', buffer: makePng(200, 300) });
  const crop = anna.getByRole('dialog', { name: 'Crop the picture' });
  await crop.getByRole('button', { name: 'Save' }).click();
  await expect(crop).toBeHidden();
  await panel.getByRole('button', { name: 'Save' }).click();

  const row = boris.getByRole('link', { name: /Weekend trip/ });
  await expect.poll(() => row.locator('.ui-avatar img').evaluate((image: HTMLImageElement) => image.naturalWidth).catch(() => 0)).toBe(512);
});
