import { readFileSync } from 'node:fs';
import { expect, test, type Browser, type Page } from './test';
import { addContact, chooseFile, createGroup, makePng, newPhone, openChatWith, send, signUpThroughApi } from './fixtures';

const PNG = makePng(24, 16);

async function pair(browser: Browser): Promise<[Page, Page]> {
  const anna = await (await browser.newContext({ permissions: ['microphone'] })).newPage();
  const boris = await (await browser.newContext({ permissions: ['microphone'] })).newPage();
  const borisPhone = newPhone();
  await signUpThroughApi(anna, 'Anna');
  await signUpThroughApi(boris, 'Boris', borisPhone);
  await addContact(anna, borisPhone, 'Boris');
  await openChatWith(anna, 'Boris');
  return [anna, boris];
}

test('a picture sent with the attach button shows as a preview for the other person', async ({ browser }) => {
  const [anna, boris] = await pair(browser);
  await chooseFile(anna.getByRole('button', { name: 'Attach a file' }), { name: 'sunset.png', mimeType: 'image/png', buffer: PNG });

  const annaImage = anna.getByRole('log', { name: 'Messages' }).getByRole('img', { name: 'sunset.png' });
  await expect(annaImage).toBeVisible();
  await boris.getByRole('link', { name: /Anna/ }).click();
  const borisImage = boris.getByRole('log', { name: 'Messages' }).getByRole('img', { name: 'sunset.png' });
  await expect(borisImage).toBeVisible();
  // The picture really loaded (decoded at its size), through a media URL — never the access token.
  await expect.poll(() => borisImage.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(24);
  const source = await borisImage.getAttribute('src');
  expect(source).toMatch(/^\/api\/receive\/.+\?token=/);
  const cookies = await boris.context().cookies();
  const access = cookies.find((cookie) => cookie.name === 'msgr_access_token')!.value;
  expect(source).not.toContain(access);
  // The list preview says what it is.
  await expect(boris.getByRole('link', { name: /Anna/ })).toContainText('Photo');
});

test('a picture opens in a tab of its own, shown by the browser under the stored files\' policy', async ({ browser }) => {
  const [anna, boris] = await pair(browser);
  await chooseFile(anna.getByRole('button', { name: 'Attach a file' }), { name: 'sunset.png', mimeType: 'image/png', buffer: PNG });
  await boris.getByRole('link', { name: /Anna/ }).click();
  const [tab] = await Promise.all([
    boris.context().waitForEvent('page'),
    boris.getByRole('log', { name: 'Messages' }).getByRole('link', { name: 'Open the picture sunset.png' }).click(),
  ]);
  // The browser's own picture viewer (it styles itself inline: the stored files' policy allows that and nothing
  // else; the suite fails on anything the policy refuses).
  await expect.poll(() => tab.locator('img').evaluate((image: HTMLImageElement) => image.naturalWidth).catch(() => 0)).toBe(24);
  expect(new URL(tab.url()).pathname).toMatch(/^\/api\/receive\//);
});

test('a document shows its name and size, and is saved under its name', async ({ browser }) => {
  const [anna, boris] = await pair(browser);
  const pdf = Buffer.from('%PDF-1.4\n%%EOF\n');
  await chooseFile(anna.getByRole('button', { name: 'Attach a file' }), { name: 'report.pdf', mimeType: 'application/pdf', buffer: pdf });
  await boris.getByRole('link', { name: /Anna/ }).click();
  await expect(boris.getByRole('link', { name: /Anna/ })).toContainText('report.pdf');
  const log = boris.getByRole('log', { name: 'Messages' });
  await expect(log).toContainText('report.pdf');
  await expect(log).toContainText(`${pdf.length} byte`);
  const download = boris.waitForEvent('download');
  await log.getByRole('button', { name: 'Save as…' }).click();
  const saved = await download;
  expect(saved.suggestedFilename()).toBe('report.pdf');
  expect(readFileSync(await saved.path())).toEqual(pdf);
});

test('a video sent as a file plays in the chat for the other person', async ({ browser }) => {
  const [anna, boris] = await pair(browser);
  // A second of WebM, recorded by the browser itself from a canvas.
  const webm = await anna.evaluate(async () => {
    const canvas = Object.assign(document.createElement('canvas'), { width: 32, height: 24 });
    const context = canvas.getContext('2d')!;
    const recorder = new MediaRecorder(canvas.captureStream(10), { mimeType: 'video/webm' });
    const parts: Blob[] = [];
    recorder.ondataavailable = (event) => parts.push(event.data);
    const stopped = new Promise((resolve) => (recorder.onstop = resolve));
    recorder.start();
    for (let frame = 0; frame < 10; frame++) {
      context.fillStyle = `hsl(${frame * 36} 80% 50%)`;
      context.fillRect(0, 0, 32, 24);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    recorder.stop();
    await stopped;
    return Array.from(new Uint8Array(await new Blob(parts).arrayBuffer()));
  });
  await chooseFile(anna.getByRole('button', { name: 'Attach a file' }), { name: 'clip.webm', mimeType: 'video/webm', buffer: Buffer.from(webm) });
  await boris.getByRole('link', { name: /Anna/ }).click();
  await expect(boris.getByRole('link', { name: /Anna/ })).toContainText('Video');
  const video = boris.getByRole('log', { name: 'Messages' }).getByLabel('clip.webm');
  // Its picture's size is known: the browser fetched and read it through the media URL (ranges, media-src).
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.videoWidth).catch(() => 0)).toBe(32);
});

test('deleting all one\'s media takes the messages that carry it away on both screens, and leaves the rest', async ({ browser }) => {
  const [anna, boris] = await pair(browser);
  await chooseFile(anna.getByRole('button', { name: 'Attach a file' }), { name: 'sunset.png', mimeType: 'image/png', buffer: PNG });
  await expect(anna.getByRole('log', { name: 'Messages' }).getByRole('img', { name: 'sunset.png' })).toBeVisible();
  await send(anna, 'The text stays');
  await boris.getByRole('link', { name: /Anna/ }).click();
  const borisLog = boris.getByRole('log', { name: 'Messages' });
  await expect(borisLog.getByRole('img', { name: 'sunset.png' })).toBeVisible();

  await anna.getByRole('tab', { name: 'Profile' }).click();
  await anna.getByRole('button', { name: 'Delete all media' }).click();
  await anna.getByRole('dialog', { name: 'Delete all media?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(anna.getByText('1 file deleted')).toBeVisible();
  await expect(borisLog.getByRole('img', { name: 'sunset.png' })).toBeHidden();
  await expect(borisLog).toContainText('The text stays');
});

test('files dropped on the chat go up side by side; one cancelled on its way is never sent', async ({ browser }) => {
  const [anna, boris] = await pair(browser);
  // The uploads are held on their way until released, so that one can be cancelled.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await anna.route('**/api/file/upload**', async (route) => {
    await held;
    await route.continue().catch(() => undefined); // the cancelled one is gone by then
  });
  const png = PNG.toString('base64');
  const files = await anna.evaluateHandle((png) => {
    const transfer = new DataTransfer();
    const bytes = Uint8Array.from(atob(png), (character) => character.charCodeAt(0));
    for (const name of ['one.png', 'two.png']) transfer.items.add(new File([bytes], name, { type: 'image/png' }));
    return transfer;
  }, png);
  const chat = anna.getByRole('region', { name: 'Boris' });
  await chat.dispatchEvent('dragover', { dataTransfer: files });
  await chat.dispatchEvent('drop', { dataTransfer: files });

  const uploads = anna.getByRole('list', { name: 'Uploads' });
  await expect(uploads.getByRole('progressbar')).toHaveCount(2);
  await uploads.getByRole('button', { name: 'Cancel two.png' }).click();
  await expect(uploads.getByRole('progressbar', { name: 'Uploading two.png' })).toBeHidden();
  await expect(anna.getByRole('alert')).toHaveCount(0); // a cancel is not an error
  release();
  const log = anna.getByRole('log', { name: 'Messages' });
  await expect(log.getByRole('img', { name: 'one.png' })).toBeVisible();
  await expect(uploads).toBeHidden();
  await expect(anna.getByRole('alert')).toHaveCount(0);

  // What the server has: the one picture, for both.
  await anna.reload();
  await expect(log.getByRole('img', { name: 'one.png' })).toBeVisible();
  await expect(log.getByRole('img', { name: /\.png$/ })).toHaveCount(1);
  await boris.getByRole('link', { name: /Anna/ }).click();
  await expect(boris.getByRole('log', { name: 'Messages' }).getByRole('img', { name: 'one.png' })).toBeVisible();
  await expect(boris.getByRole('log', { name: 'Messages' }).getByRole('img', { name: /\.png$/ })).toHaveCount(1);
});

test('a file too large is refused with the limit in the message', async ({ browser }) => {
  const [anna] = await pair(browser);
  await chooseFile(anna.getByRole('button', { name: 'Attach a file' }), { name: 'huge.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(11 * 1024 * 1024) });
  await expect(anna.getByRole('alert').filter({ hasText: 'Upload failed. Maximum size - 10 MB.' })).toBeVisible();
});

test('a voice message recorded with the microphone is played by the other person', async ({ browser }) => {
  const [anna, boris] = await pair(browser);
  await anna.getByRole('button', { name: 'Record a voice message' }).click();
  const recorder = anna.getByRole('group', { name: 'Recording a voice message' });
  await expect(recorder.getByRole('timer')).toHaveText(/0:0[1-9]/, { timeout: 5000 });
  await recorder.getByRole('button', { name: 'Send' }).click();
  await expect(anna.getByRole('log', { name: 'Messages' }).getByRole('group', { name: 'Voice message' })).toBeVisible();

  await boris.getByRole('link', { name: /Anna/ }).click();
  const voice = boris.getByRole('log', { name: 'Messages' }).getByRole('group', { name: 'Voice message' });
  await expect(voice).toBeVisible();
  await expect(voice).toContainText(/0:0[1-9]/); // its recorded length
  await voice.getByRole('button', { name: 'Play' }).click();
  await expect(voice.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect.poll(async () => Number(await voice.getByRole('slider', { name: 'Playback position' }).inputValue()), { timeout: 10_000 }).toBeGreaterThan(300);
});

// The message list is virtualized: a row scrolled out of the rendered range unmounts, and the voice message
// playing in it stopped mid-sentence. It plays on now, and is still playing when scrolled back to (12 s long:
// long enough to outlast the scrolling on a busy machine).
test('a voice message plays on while it is scrolled out of view', async ({ browser }) => {
  const [anna, boris] = await pair(browser);
  // A second chat of Boris's, to leave this one for.
  await createGroup(anna, 'Book club', ['Boris']);
  await openChatWith(anna, 'Boris');
  await anna.getByRole('button', { name: 'Record a voice message' }).click();
  const recorder = anna.getByRole('group', { name: 'Recording a voice message' });
  await expect(recorder.getByRole('timer')).toHaveText(/0:1[2-9]/, { timeout: 30_000 });
  await recorder.getByRole('button', { name: 'Send' }).click();
  const log = (page: Page) => page.getByRole('log', { name: 'Messages' });
  await expect(log(anna).getByRole('group', { name: 'Voice message' })).toBeVisible();
  for (let i = 1; i <= 40; i += 1) await send(anna, `line ${i}`);

  await boris.getByRole('link', { name: /Anna/ }).click();
  await expect(log(boris).getByText('line 40')).toBeVisible();
  const voice = log(boris).getByRole('group', { name: 'Voice message' });
  await log(boris).hover();
  await expect(async () => {
    await boris.mouse.wheel(0, -4000);
    await expect(voice).toBeVisible({ timeout: 1000 });
  }).toPass();
  await voice.getByRole('button', { name: 'Play' }).click();
  await expect(voice.getByRole('button', { name: 'Pause' })).toBeVisible();

  // Down to the newest: the voice message's row is gone from the page.
  await expect(async () => {
    await boris.mouse.wheel(0, 4000);
    await expect(log(boris).getByText('line 40')).toBeVisible({ timeout: 1000 });
  }).toPass();
  await expect(voice).toHaveCount(0);
  // Back up to it: still playing, further on.
  await expect(async () => {
    await boris.mouse.wheel(0, -4000);
    await expect(voice).toBeVisible({ timeout: 1000 });
  }).toPass();
  await expect(voice.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect.poll(async () => Number(await voice.getByRole('slider', { name: 'Playback position' }).inputValue()), { timeout: 10_000 }).toBeGreaterThan(500);
  // Paused part-way, then another chat opened: that stops it, and back in this one the message is at its start
  // (a sound left paused would still show where it was, however long the steps take).
  await voice.getByRole('button', { name: 'Pause' }).click();
  await expect(voice.getByRole('button', { name: 'Play' })).toBeVisible();
  expect(Number(await voice.getByRole('slider', { name: 'Playback position' }).inputValue())).toBeGreaterThan(500);
  await boris.getByRole('link', { name: /Book club/ }).click();
  await expect(boris.getByRole('heading', { name: 'Book club' })).toBeVisible();
  await boris.getByRole('link', { name: /Anna/ }).click();
  await expect(async () => {
    await log(boris).hover();
    await boris.mouse.wheel(0, -4000);
    await expect(voice).toBeVisible({ timeout: 1000 });
  }).toPass();
  await expect(voice.getByRole('button', { name: 'Play' })).toBeVisible();
  await expect(voice.getByRole('slider', { name: 'Playback position' })).toHaveValue('0');
});
