import { test, type BrowserContext, type Page } from './test';
import { SIXTH_ADMIN_PHONE, addContact, newPhone, openChatWith, signUpAdminInBrowser, signUpThroughApi } from './fixtures';
import { CALL_TEST_TIMEOUT_MS, CALL_WAIT_MS, acceptIncoming, callWindow, expect, expectReceivingFrom, watchPeerConnections } from './call-helpers';

// Spec §7 and §6: an admin records a chat's calls; each participant's browser records its own microphone and
// uploads it; the admin finds the recordings in the staff area's Files and opens them.
test.describe.configure({ timeout: CALL_TEST_TIMEOUT_MS });

const contexts: BrowserContext[] = [];
test.afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

test('an admin records a chat’s calls: both sides’ microphones are stored, and the Files page opens them', async ({ browser }) => {
  const open = async () => {
    const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
    contexts.push(context);
    await watchPeerConnections(context);
    return context.newPage();
  };
  const admin = await open();
  const boris = await open();
  const borisPhone = newPhone();
  await signUpAdminInBrowser(admin, 'Rita Admin', SIXTH_ADMIN_PHONE);
  await signUpThroughApi(boris, 'Boris', borisPhone);
  await addContact(admin, borisPhone, 'Boris');
  await openChatWith(admin, 'Boris');
  const chatId = new URL(admin.url()).pathname.slice(1);

  // Recording is switched on for this chat (known once loaded: the button is enabled then).
  const record = admin.getByRole('button', { name: 'Record calls' });
  await expect(record).toHaveAttribute('aria-pressed', 'false');
  await record.click();
  await expect(record).toHaveAttribute('aria-pressed', 'true');

  // A call with sound both ways, hung up after a moment.
  await admin.getByRole('button', { name: 'Call', exact: true }).click();
  const meeting = await acceptIncoming(boris);
  await expectReceivingFrom(admin, 1);
  await expectReceivingFrom(meeting, 1);
  // Everyone in the call is told that it is recorded, in their call window's header.
  await expect(callWindow(admin, 'Boris').getByRole('status').filter({ hasText: 'Recording' })).toBeVisible();
  await expect(callWindow(meeting, 'Rita Admin').getByRole('status').filter({ hasText: 'Recording' })).toBeVisible();
  // Each side's browser uploads its microphone's recording as the call ends (the admin's from the app, Boris's
  // from his meeting tab): both are stored.
  const stored = (page: Page) =>
    page.waitForResponse((response) => response.url().includes('/api/file/upload/meet-audio') && response.status() === 201, {
      timeout: CALL_WAIT_MS,
    });
  const uploads = Promise.all([stored(admin), stored(meeting)]);
  const adminWindow = callWindow(admin, 'Boris');
  await adminWindow.getByRole('button', { name: 'Hang up' }).click();
  await expect(adminWindow).toBeHidden();
  await uploads;

  // Files: recordings / the chat / the call's message, a file per participant (more if the call outlasted a
  // 60 s chunk on a slow machine).
  await admin.getByRole('link', { name: 'Files' }).click();
  await admin.getByRole('button', { name: 'Open the folder recordings' }).click();
  await admin.getByRole('button', { name: `Open the folder ${chatId}` }).click();
  await admin.getByRole('button', { name: /^Open the folder \d+$/ }).click();
  const recordings = admin.getByRole('button', { name: /^Open call-\d+-\d+\.webm$/ });
  await expect.poll(() => recordings.count()).toBeGreaterThanOrEqual(2);
  await expect(admin.getByRole('row').filter({ has: recordings }).filter({ hasText: 'audio/webm' })).toHaveCount(await recordings.count());

  // Opened, it plays in a tab of its own: a WebM file of sound, from an admin media URL.
  const [tab] = await Promise.all([admin.context().waitForEvent('page'), recordings.first().click()]);
  await tab.waitForURL(/\/api\/receive\/admin\/recordings\//, { waitUntil: 'commit' });
  // Chromium's own player for a media document, which reads the recording (the stored files' policy lets it).
  await expect(tab.locator('video')).toBeVisible();
  await expect.poll(() => tab.locator('video').evaluate((player: HTMLVideoElement) => player.duration)).toBeGreaterThan(0);
  // And it is sound a browser decodes: an audio element in the admin's app reads its metadata.
  const decoded = await admin.evaluate(
    ([url, waitMs]) =>
      new Promise<string>((resolve) => {
        const player = new Audio(url);
        player.onloadedmetadata = () => resolve('metadata');
        player.onerror = () => resolve(`error ${player.error?.code}`);
        setTimeout(() => resolve('no metadata in time'), waitMs);
      }),
    [tab.url(), CALL_WAIT_MS] as const,
  );
  expect(decoded).toBe('metadata');
  const file = await admin.request.get(tab.url());
  expect(file.status()).toBe(200);
  expect(file.headers()['content-type']).toBe('audio/webm');
  expect(file.headers()['content-security-policy']).toContain("media-src 'self'");
  const body = await file.body();
  expect(body.subarray(0, 4).toString('hex')).toBe('1a45dfa3'); // the EBML header every WebM file starts with
  expect(body.length).toBeGreaterThan(1_000);
});
