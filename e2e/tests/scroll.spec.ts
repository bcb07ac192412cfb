import { expect, test, type Browser, type Page } from './test';
import { STORED, annaAndBoris, chooseFile, makePng, messageAction, messageRow, send } from './fixtures';

/** Sends many texts quickly (without waiting for each), then waits for the last one to be stored. */
async function sendMany(page: Page, texts: string[]): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  for (const text of texts) {
    await box.fill(text);
    await box.press('Enter');
  }
  await expect(messageRow(page, texts.at(-1)!).getByRole('img', { name: STORED })).toBeVisible({ timeout: 30_000 });
}

async function pair(browser: Browser): Promise<[Page, Page]> {
  const { anna, boris } = await annaAndBoris(browser);
  return [anna, boris];
}

const long = (i: number) => `long ${i} ${'a rather long line of words that wraps across the bubble several times '.repeat(6).trim()}`;

// Issue 9: with the reader at the bottom, some incoming messages (a photo among them) did not come into view.
test('an open chat follows new messages while the reader is at the bottom, pictures included', async ({ browser }) => {
  const [anna, boris] = await pair(browser);
  await sendMany(anna, ['start', long(1), 'short']);
  await boris.getByRole('link', { name: /Anna/ }).click();
  await expect(messageRow(boris, 'short')).toBeInViewport();

  // Boris's copy of the picture arrives late: its row grows well after the list has settled at its end.
  let delayedPictures = 0;
  await boris.route('**/*', async (route) => {
    if (route.request().resourceType() !== 'image') return route.continue();
    delayedPictures += 1;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue();
  });
  await sendMany(anna, ['one', long(2), 'two']);
  await chooseFile(anna.getByRole('button', { name: 'Attach a file' }), { name: 'tall.png', mimeType: 'image/png', buffer: makePng(300, 900) });
  await expect(anna.getByRole('log', { name: 'Messages' }).getByRole('img', { name: 'tall.png' })).toBeVisible();

  const picture = boris.getByRole('log', { name: 'Messages' }).getByRole('img', { name: 'tall.png' });
  await expect.poll(() => picture.evaluate((image: HTMLImageElement) => image.naturalHeight), { timeout: 30_000 }).toBe(900);
  expect(delayedPictures).toBeGreaterThan(0);
  // The whole picture, down to its lower edge, came into view by itself.
  await expect(picture).toBeInViewport({ ratio: 1 });

  await sendMany(anna, [long(3), 'the very last']);
  await expect(messageRow(boris, 'the very last')).toBeInViewport();
});

// Issue 9: after older pages were loaded, 2 new messages were counted as "752 new messages", and the
// scroll-down button sometimes scrolled up instead of to the newest in a chat of mixed heights.
test('the scroll-down button counts only what arrived below, and takes the reader to the newest', async ({ browser }) => {
  test.setTimeout(180_000);
  const [anna, boris] = await pair(browser);
  const texts = Array.from({ length: 70 }, (_, i) => (i % 7 === 3 ? long(i) : `msg ${i}`));
  await sendMany(anna, texts);
  // Some deleted in the middle: rows of the virtual list shift.
  for (const text of ['msg 60', 'msg 64', long(66)]) {
    await messageAction(anna, text, 'Delete');
    await anna.getByRole('dialog', { name: 'Delete this message?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(messageRow(anna, text)).toHaveCount(0);
  }

  await boris.getByRole('link', { name: /Anna/ }).click();
  const log = boris.getByRole('log', { name: 'Messages' });
  // The chat opens at its end, and gets there by itself even while the rows above are still being measured
  // (on a slow machine, rows measured shorter than estimated pulled the list up and it stayed there).
  const reachedEnd = await log.evaluate(
    (element) =>
      new Promise<boolean>((resolve) => {
        const deadline = performance.now() + 30_000;
        const check = () => {
          if (element.scrollTop > 0 && element.scrollHeight - element.scrollTop - element.clientHeight < 2) resolve(true);
          else if (performance.now() > deadline) resolve(false);
          else requestAnimationFrame(check);
        };
        check();
      }),
  );
  expect(reachedEnd, 'the chat opened at its newest message').toBe(true);
  // Scrolling up with the wheel the moment it is there keeps the reader where they went: the list never takes
  // them back to the end by itself. (An older page loading above moves scrollTop down by its height; what counts
  // is never being at the end again.)
  await log.hover();
  await boris.mouse.wheel(0, -20_000);
  // From the frame the wheel's scroll has taken the list well away from its end (the wheel returns before it
  // shows), for 2 s: how close to the end it came again.
  const closestToEnd = await log.evaluate(
    (element) =>
      new Promise<number>((resolve) => {
        const gap = () => element.scrollHeight - element.scrollTop - element.clientHeight;
        const deadline = performance.now() + 10_000;
        const watch = (since: number, closest: number) => {
          closest = Math.min(closest, gap());
          if (performance.now() - since > 2_000) resolve(closest);
          else requestAnimationFrame(() => watch(since, closest));
        };
        const waitForScroll = () => {
          if (gap() > 500) watch(performance.now(), Infinity);
          else if (performance.now() > deadline) resolve(-1);
          else requestAnimationFrame(waitForScroll);
        };
        waitForScroll();
      }),
  );
  expect(closestToEnd, 'the wheel took the list well away from its end').not.toBe(-1);
  expect(closestToEnd).toBeGreaterThan(500);
  await expect(log.getByText('msg 69')).not.toBeInViewport();
  // Up to the oldest: an older page loads above.
  await expect
    .poll(
      async () => {
        await boris.mouse.wheel(0, -20_000);
        return messageRow(boris, 'msg 0').count();
      },
      { timeout: 30_000 },
    )
    .toBe(1);
  await expect(boris.getByRole('button', { name: /^Scroll/ })).toBeVisible();

  await sendMany(anna, ['new one', 'new two']);
  const button = boris.getByRole('button', { name: 'Scroll down, 2 new messages' });
  await expect(button).toBeVisible();
  await button.click();
  await expect(messageRow(boris, 'new two')).toBeInViewport();
  await expect(boris.getByRole('button', { name: /^Scroll/ })).toHaveCount(0);

  // Up again, then down with the button: never up. Measured as the distance from the end, from the moment the
  // wheel's scroll has settled, every frame until the end is reached: scrollTop itself moves when rows above are
  // measured again, and the wheel's and the button's scrolls are animated (read mid-way, a fresh run once saw the
  // button's scroll "above" a wheel that had not finished).
  await log.hover();
  await boris.mouse.wheel(0, -1_500);
  await expect(boris.getByRole('button', { name: 'Scroll to the latest messages' })).toBeVisible();
  const settled = await log.evaluate(
    (element) =>
      new Promise<number>((resolve) => {
        const gap = () => element.scrollHeight - element.scrollTop - element.clientHeight;
        const deadline = performance.now() + 10_000;
        const watch = (last: number, still: number) => {
          const now = gap();
          if (still >= 10 || performance.now() > deadline) resolve(now);
          else requestAnimationFrame(() => watch(now, now === last ? still + 1 : 0));
        };
        watch(gap(), 0);
      }),
  );
  expect(settled).toBeGreaterThan(200);
  const journey = log.evaluate(
    (element) =>
      new Promise<{ farthest: number; last: number }>((resolve) => {
        const gap = () => element.scrollHeight - element.scrollTop - element.clientHeight;
        const deadline = performance.now() + 10_000;
        const watch = (farthest: number) => {
          const now = gap();
          if (now < 2 || performance.now() > deadline) resolve({ farthest: Math.max(farthest, now), last: now });
          else requestAnimationFrame(() => watch(Math.max(farthest, now)));
        };
        watch(gap());
      }),
  );
  await boris.getByRole('button', { name: 'Scroll to the latest messages' }).click();
  const { farthest, last } = await journey;
  expect(last, 'the button took the reader to the end').toBeLessThan(2);
  // Never further from the end than before the click (a row below measured again may add a few pixels).
  expect(farthest).toBeLessThan(settled + 50);
  await expect(messageRow(boris, 'new two')).toBeInViewport();
  await send(anna, 'after');
  await expect(messageRow(boris, 'after')).toBeInViewport();
});

// Only the reader's own input lets go of the end (the list moves itself too): the keyboard is such input.
test('paging up with the keyboard keeps the reader where they went while new messages wait below', async ({ browser }) => {
  const [anna, boris] = await pair(browser);
  await sendMany(anna, Array.from({ length: 40 }, (_, i) => `line ${i}`));
  await boris.getByRole('link', { name: /Anna/ }).click();
  const log = boris.getByRole('log', { name: 'Messages' });
  await expect(messageRow(boris, 'line 39')).toBeInViewport();

  // The list takes the keys once it has the focus, as after a click or a Tab into it; the focus moving in and the
  // keys are both the reader's input (the test fails when neither counts).
  await log.focus();
  await expect(log).toBeFocused();
  for (let page = 0; page < 3; page += 1) await boris.keyboard.press('PageUp');
  await expect(boris.getByRole('button', { name: 'Scroll to the latest messages' })).toBeVisible();
  await expect(messageRow(boris, 'line 39')).not.toBeInViewport();

  await send(anna, 'while away');
  await expect(boris.getByRole('button', { name: 'Scroll down, 1 new message' })).toBeVisible();
  await expect(messageRow(boris, 'while away')).not.toBeInViewport();
});
