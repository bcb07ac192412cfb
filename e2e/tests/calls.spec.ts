import { CLUSTER, test, type Browser, type BrowserContext, type Page } from './test';
import { addContact, callRow, messageRow, newPhone, openChatWith, send, signUpThroughApi } from './fixtures';
import {
  CALL_TEST_TIMEOUT_MS,
  acceptIncoming,
  callWindow,
  dropMeetingSocket,
  expect,
  expectReceivingFrom,
  mediaFigures,
  overlap,
  peerConnectionsMade,
  shownInFull,
  watchPeerConnections,
} from './call-helpers';
import { RELAY_BASE_URL } from './relay-server';

// Every wait below polls with call-helpers' generous deadline (a busy machine), so the tests get room for them.
test.describe.configure({ timeout: CALL_TEST_TIMEOUT_MS });

const contexts: BrowserContext[] = [];
// Every person's browser closes with their test: a call left open would keep using the machine.
test.afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

async function person(browser: Browser, name: string, phone = newPhone(), baseURL?: string): Promise<{ page: Page; phone: string }> {
  const context = await browser.newContext({ permissions: ['camera', 'microphone'], ...(baseURL ? { baseURL } : {}) });
  contexts.push(context);
  await watchPeerConnections(context);
  const page = await context.newPage();
  await signUpThroughApi(page, name, phone);
  return { page, phone };
}

/** Anna and Boris, contacts of each other, with their private chat open on both sides. */
async function twoPeople(browser: Browser, baseURL?: string) {
  const boris = await person(browser, 'Boris', newPhone(), baseURL);
  const anna = await person(browser, 'Anna', newPhone(), baseURL);
  await addContact(anna.page, boris.phone, 'Boris');
  await addContact(boris.page, anna.phone, 'Anna');
  await openChatWith(anna.page, 'Boris');
  return { anna: anna.page, boris: boris.page };
}

test('A calls B, B accepts in a new tab, both see and hear each other, A hangs up, both histories show it', CLUSTER, async ({ browser }) => {
  const { anna, boris } = await twoPeople(browser);
  // Boris has the app open in a second tab too, its live connection up (Anna's message reached it).
  const borisElsewhere = await boris.context().newPage();
  await borisElsewhere.goto('/');
  await openChatWith(borisElsewhere, 'Anna');
  await send(anna, 'Calling you now');
  await expect(messageRow(borisElsewhere, 'Calling you now')).toBeVisible();

  await anna.getByRole('button', { name: 'Call', exact: true }).click();
  const annaWindow = callWindow(anna, 'Boris');
  await expect(annaWindow).toBeVisible();
  await expect(annaWindow.getByRole('status').filter({ hasText: 'Calling…' })).toBeVisible();
  const ringingElsewhere = borisElsewhere.getByRole('alertdialog', { name: 'Incoming call' });
  await expect(ringingElsewhere).toBeVisible();
  const rangAt = Date.now();

  const meeting = await acceptIncoming(boris);
  const borisWindow = callWindow(meeting, 'Anna');
  await expect(borisWindow).toBeVisible();
  // Answered in one tab, the other stops ringing — at once, not when its ring would time out (60 s).
  await expect(ringingElsewhere).toBeHidden();
  expect(Date.now() - rangAt).toBeLessThan(55_000);
  await borisElsewhere.close();

  // Both decode the other's camera and receive their microphone, through the SFU.
  await expectReceivingFrom(anna, 1);
  await expectReceivingFrom(meeting, 1);
  await expect(annaWindow.getByText('2 participants')).toBeVisible();
  // The timer runs (from whatever it shows when looked at: a busy machine may take seconds to get here).
  const timer = annaWindow.getByRole('timer');
  await expect(timer).toHaveText(/^\d\d:\d\d$/);
  const shown = await timer.textContent();
  await expect(timer).not.toHaveText(shown ?? '');
  await expect(timer).toHaveText(/^\d\d:\d\d$/);
  // Nobody records this chat's calls, and the window does not say otherwise (recording.spec.ts: when it does).
  await expect(annaWindow.getByText('Recording')).toHaveCount(0);
  // At 400×400 my preview stays clear of the other person's name.
  const viewport = anna.viewportSize();
  await anna.setViewportSize({ width: 400, height: 400 });
  expect(await overlap(annaWindow.getByRole('figure', { name: /^You/ }), annaWindow.getByRole('listitem').getByText('Boris', { exact: true }))).toBe(false);
  if (viewport) await anna.setViewportSize(viewport);

  await annaWindow.getByRole('button', { name: 'Hang up' }).click();
  await expect(annaWindow).toBeHidden();
  await expect(borisWindow).toBeHidden();
  await expect(meeting.getByRole('status').filter({ hasText: 'The call has ended.' })).toBeVisible();

  // The chat shows the call with its length, for both.
  await expect(anna.getByRole('log', { name: 'Messages' }).getByRole('group', { name: /^Outgoing call, \d\d:\d\d$/ })).toBeVisible();
  await openChatWith(boris, 'Anna');
  await expect(boris.getByRole('log', { name: 'Messages' }).getByRole('group', { name: /^Incoming call, \d\d:\d\d$/ })).toBeVisible();

  // Both histories hold the call, connected.
  await anna.getByRole('tab', { name: 'Calls' }).click();
  await expect(callRow(anna, 'Boris')).toHaveAccessibleName(/^Boris Outgoing call · \d\d:\d\d \d/);
  await boris.getByRole('tab', { name: 'Calls' }).click();
  await expect(callRow(boris, 'Anna')).toHaveAccessibleName(/^Anna Incoming call · \d\d:\d\d \d/);
});

test('the meeting connection drops and comes back: the call goes on with picture and sound', CLUSTER, async ({ browser }) => {
  const { anna, boris } = await twoPeople(browser);
  await anna.getByRole('button', { name: 'Call', exact: true }).click();
  const meeting = await acceptIncoming(boris);
  await expectReceivingFrom(anna, 1);

  const made = await peerConnectionsMade(anna);
  expect(await dropMeetingSocket(anna)).toBe(1);
  // Anna's tab connects again with a fresh ticket (a new peer connection); the SFU replaces her old one.
  await expect.poll(() => peerConnectionsMade(anna)).toBe(made + 1);
  await expect.poll(async () => (await mediaFigures(anna)).framesDecoded.length).toBe(1);
  await expectReceivingFrom(anna, 1);
  // Boris receives Anna again: his decoded frames keep growing after her return.
  const decoded = async () => (await mediaFigures(meeting)).framesDecoded.reduce((sum, frames) => sum + frames, 0);
  const afterReturn = await decoded();
  await expect.poll(decoded).toBeGreaterThan(afterReturn + 10);
  await expect(callWindow(anna, 'Boris').getByText('2 participants')).toBeVisible();
  await expect(callWindow(meeting, 'Anna').getByText('2 participants')).toBeVisible();
  await callWindow(anna, 'Boris').getByRole('button', { name: 'Hang up' }).click();
  await expect(callWindow(meeting, 'Anna')).toBeHidden();
});

test('one side is away longer than 5 s: the other sees "Reconnecting…" on their tile, and the call goes on when they return', CLUSTER, async ({ browser }) => {
  const { anna, boris } = await twoPeople(browser);
  await anna.getByRole('button', { name: 'Call', exact: true }).click();
  const meeting = await acceptIncoming(boris);
  await expectReceivingFrom(meeting, 1);
  const borisWindow = callWindow(meeting, 'Anna');
  const annaTile = borisWindow.getByRole('listitem').filter({ hasText: 'Anna' });

  // Anna's network goes: her meeting socket drops and her tab cannot get a new ticket for a while.
  await anna.route('**/meet/get-token*', (route) => route.abort('internetdisconnected'));
  const made = await peerConnectionsMade(anna);
  const droppedAt = Date.now();
  expect(await dropMeetingSocket(anna)).toBe(1);
  await expect(annaTile.getByRole('status')).toHaveText('Reconnecting…');
  // Longer than the 5 s after which the call used to end: it is still there, Anna still shown as coming back.
  await expect.poll(() => Date.now() - droppedAt).toBeGreaterThan(8000);
  await expect(borisWindow).toBeVisible();
  await expect(annaTile.getByRole('status')).toHaveText('Reconnecting…');
  await expect(borisWindow.getByText('2 participants')).toBeVisible();

  // The network is back: Anna's tab connects again into the same call, and Boris sees her again.
  await anna.unroute('**/meet/get-token*');
  await expect.poll(() => peerConnectionsMade(anna)).toBeGreaterThan(made);
  await expect(annaTile.getByRole('status')).toHaveCount(0);
  const decoded = async () => (await mediaFigures(meeting)).framesDecoded.reduce((sum, frames) => sum + frames, 0);
  const back = await decoded();
  await expect.poll(decoded).toBeGreaterThan(back + 10);
  await callWindow(anna, 'Boris').getByRole('button', { name: 'Hang up' }).click();
  await expect(borisWindow).toBeHidden();
});

test("the camera off: the other side shows one's avatar steadily, not flicking to the blank picture; on again, the video", async ({ browser }) => {
  const { anna, boris } = await twoPeople(browser);
  await anna.getByRole('button', { name: 'Call', exact: true }).click();
  const meeting = await acceptIncoming(boris);
  await expectReceivingFrom(meeting, 1);
  const annaTile = callWindow(meeting, 'Anna').getByRole('listitem').filter({ hasText: 'Anna' });
  const picture = annaTile.locator('video');
  await expect(picture).toBeVisible();

  const camera = callWindow(anna, 'Boris').getByRole('button', { name: 'Camera' });
  await camera.click();
  await expect(camera).toHaveAttribute('aria-pressed', 'false');
  await expect(picture).toBeHidden();
  // The blank picture goes on at about 1 frame a second; the avatar must stay, every moment, for 12 s.
  const shown: boolean[] = [];
  const since = Date.now();
  await expect
    .poll(async () => {
      shown.push(await picture.isVisible());
      return Date.now() - since;
    }, { intervals: [200] })
    .toBeGreaterThan(12_000);
  expect(shown.filter(Boolean)).toEqual([]);

  await camera.click();
  await expect(camera).toHaveAttribute('aria-pressed', 'true');
  await expect(picture).toBeVisible();
});

test('a shared screen replaces the camera for the other side; stopped, the avatar shows; the camera comes back', async ({ browser }) => {
  const { anna, boris } = await twoPeople(browser);
  await anna.getByRole('button', { name: 'Call', exact: true }).click();
  const meeting = await acceptIncoming(boris);
  await expectReceivingFrom(meeting, 1);
  const picture = callWindow(meeting, 'Anna').getByRole('listitem').filter({ hasText: 'Anna' }).locator('video');
  await expect(picture).toBeVisible();
  // What Anna's browser sends as her picture: the camera's track (by its label, read first), a captured screen
  // (Chromium names it "screen:…"), or anything else (the blank picture sent while neither is on).
  const videoLabel = () =>
    anna.evaluate(() => {
      const pcs = (window as unknown as { __peerConnections: RTCPeerConnection[] }).__peerConnections;
      const open = pcs.filter((pc) => pc.connectionState !== 'closed');
      return open.flatMap((pc) => pc.getSenders()).find((sender) => sender.track?.kind === 'video')?.track?.label ?? '';
    });
  const cameraLabel = await videoLabel();
  expect(cameraLabel).not.toBe('');
  const sending = async () => {
    const label = await videoLabel();
    return label === cameraLabel ? 'camera' : label.startsWith('screen:') ? 'screen' : 'blank';
  };
  // Boris goes on decoding Anna's frames: more than 10 new ones, counted across a reading that starts again
  // from zero (a connection made anew).
  const decoding = async () => {
    let last = (await mediaFigures(meeting)).framesDecoded[0] ?? 0;
    let grown = 0;
    await expect
      .poll(async () => {
        const now = (await mediaFigures(meeting)).framesDecoded[0] ?? 0;
        grown += now >= last ? now - last : now;
        last = now;
        return grown;
      })
      .toBeGreaterThan(10);
  };
  expect(await sending()).toBe('camera');

  const annaWindow = callWindow(anna, 'Boris');
  const camera = annaWindow.getByRole('button', { name: 'Camera' });
  const screen = annaWindow.getByRole('button', { name: 'Share screen' });
  await screen.click();
  await expect(screen).toHaveAttribute('aria-pressed', 'true');
  // One or the other (spec §2): the camera is off while the screen is shared, and the screen is what goes out.
  await expect(camera).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(sending).toBe('screen');
  await expect(picture).toBeVisible();
  await decoding();

  // Stopped: the blank picture goes out, and the other side shows Anna's avatar instead.
  await screen.click();
  await expect(screen).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(sending).toBe('blank');
  await expect(picture).toBeHidden();

  await camera.click();
  await expect(camera).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(sending).toBe('camera');
  await expect(picture).toBeVisible();
  await decoding();
});

test('the call window moves by its header and resizes by its edges, by mouse and by keyboard, and stays on screen', async ({ browser }) => {
  const { anna } = await twoPeople(browser);
  await anna.setViewportSize({ width: 1280, height: 720 });
  await anna.getByRole('button', { name: 'Call', exact: true }).click();
  const annaWindow = callWindow(anna, 'Boris');
  await expect(annaWindow).toBeVisible();
  const box = async () => {
    const { x, y, width, height } = (await annaWindow.boundingBox())!;
    return { x: Math.round(x), y: Math.round(y), width: Math.round(width), height: Math.round(height) };
  };
  // Opens centred at the smallest size (spec §2: 400 × 400).
  expect(await box()).toEqual({ x: 440, y: 160, width: 400, height: 400 });

  const drag = async (from: { x: number; y: number }, by: { x: number; y: number }) => {
    await anna.mouse.move(from.x, from.y);
    await anna.mouse.down();
    await anna.mouse.move(from.x + by.x, from.y + by.y, { steps: 5 });
    await anna.mouse.up();
  };
  // Dragged by its title, the window follows the pointer.
  const title = (await annaWindow.getByRole('heading', { name: 'Boris' }).boundingBox())!;
  await drag({ x: title.x + 5, y: title.y + 5 }, { x: -200, y: 100 });
  await expect.poll(box).toEqual({ x: 240, y: 260, width: 400, height: 400 });
  // Its corner handle makes it larger.
  const corner = (await annaWindow.getByRole('button', { name: 'Resize from the corner' }).boundingBox())!;
  await drag({ x: corner.x + corner.width / 2, y: corner.y + corner.height / 2 }, { x: 150, y: 30 });
  await expect.poll(box).toEqual({ x: 240, y: 260, width: 550, height: 430 });
  // Shift and the arrows on the right edge's handle, and the new size is said.
  const right = annaWindow.getByRole('button', { name: 'Resize from the right edge' });
  await right.focus();
  await anna.keyboard.press('Shift+ArrowLeft');
  const { width } = await box();
  expect(width).toBeLessThan(550);
  await expect(annaWindow.getByRole('status').filter({ hasText: `Window size ${width} × 430` })).toBeAttached();
  // Dragged far past the edge, it stops at the viewport's corner; smaller viewport, pulled back inside.
  await drag({ x: title.x - 195, y: title.y + 105 }, { x: 2000, y: 2000 });
  await expect.poll(box).toEqual({ x: 1280 - width, y: 720 - 430, width, height: 430 });
  await anna.setViewportSize({ width: 900, height: 600 });
  await expect.poll(box).toEqual({ x: 900 - width, y: 600 - 430, width, height: 430 });
  // Maximised, it fills the page; restored, it is back where it was.
  const maximize = annaWindow.getByRole('button', { name: 'Maximize window' });
  await maximize.click();
  await expect(maximize).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(box).toEqual({ x: 0, y: 0, width: 900, height: 600 });
  await maximize.click();
  await expect.poll(box).toEqual({ x: 900 - width, y: 600 - 430, width, height: 430 });

  await annaWindow.getByRole('button', { name: 'Hang up' }).click();
  await expect(annaWindow).toBeHidden();
});

test('the busy and "two calls at once" notices can be read in full', CLUSTER, async ({ browser }) => {
  const anna = await person(browser, 'Anna');
  const boris = await person(browser, 'Boris');
  const carl = await person(browser, 'Carl');
  await addContact(boris.page, carl.phone, 'Carl');
  await addContact(boris.page, anna.phone, 'Anna');
  await addContact(anna.page, boris.phone, 'Boris');
  // Everything is opened before Boris's call, which rings for 60 s at most: on a busy machine, loading a tab
  // in between took longer than that, the call ended as missed, and the second one was no longer "two at once".
  await openChatWith(anna.page, 'Boris');
  // Boris's second tab (in the first one the Call buttons are off during a call).
  const second = await boris.page.context().newPage();
  await second.goto('/');
  await openChatWith(second, 'Anna');
  // Boris is calling Carl (nobody answers yet): he is in a call.
  await openChatWith(boris.page, 'Carl');
  await boris.page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(callWindow(boris.page, 'Carl')).toBeVisible();

  await anna.page.getByRole('button', { name: 'Call', exact: true }).click();
  const busy = anna.page.getByRole('status').filter({ hasText: 'Call was interrupted because the user is currently busy' });
  await expect(busy).toBeVisible();
  expect(await shownInFull(busy)).toBe(true);

  // Boris tries a second call while in his first.
  await second.getByRole('button', { name: 'Call', exact: true }).click();
  const twice = second.getByRole('status').filter({ hasText: 'You cannot make two or more calls at the same time' });
  await expect(twice).toBeVisible();
  expect(await shownInFull(twice)).toBe(true);
  await callWindow(boris.page, 'Carl').getByRole('button', { name: 'Hang up' }).click();
});

test('a declined call: the caller is told, and the call window closes', CLUSTER, async ({ browser }) => {
  const { anna, boris } = await twoPeople(browser);
  await anna.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(callWindow(anna, 'Boris')).toBeVisible();
  const incoming = boris.getByRole('alertdialog', { name: 'Incoming call' });
  await incoming.getByRole('button', { name: 'Decline' }).click();
  await expect(incoming).toBeHidden();
  await expect(callWindow(anna, 'Boris')).toBeHidden();
  await expect(anna.getByText('The call was rejected')).toBeVisible();
  await anna.getByRole('tab', { name: 'Calls' }).click();
  await expect(callRow(anna, 'Boris')).toContainText('Outgoing call · Declined');
});

test('a missed call: nobody answers within 60 seconds (the browser clock runs ahead)', CLUSTER, async ({ browser }) => {
  const { anna, boris } = await twoPeople(browser);
  await anna.clock.install();
  await boris.clock.install();
  await anna.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(callWindow(anna, 'Boris')).toBeVisible();
  const incoming = boris.getByRole('alertdialog', { name: 'Incoming call' });
  await expect(incoming).toBeVisible();

  await boris.clock.fastForward(61_000);
  await expect(incoming).toBeHidden();
  await anna.clock.fastForward(61_000);
  await expect(callWindow(anna, 'Boris')).toBeHidden();

  await boris.getByRole('tab', { name: 'Calls' }).click();
  await expect(callRow(boris, 'Anna')).toContainText('Incoming call · Missed');
  await anna.getByRole('tab', { name: 'Calls' }).click();
  await expect(callRow(anna, 'Boris')).toContainText('Outgoing call · No answer');
});

test('a group call of three: everyone sees and hears everyone', CLUSTER, async ({ browser }) => {
  const anna = await person(browser, 'Anna');
  const boris = await person(browser, 'Boris');
  const carl = await person(browser, 'Carl');
  await addContact(anna.page, boris.phone, 'Boris');
  await addContact(anna.page, carl.phone, 'Carl');
  await anna.page.getByRole('tab', { name: 'Chats' }).click();
  await anna.page.getByRole('button', { name: 'New group' }).click();
  const create = anna.page.getByRole('dialog', { name: 'New group' });
  await create.getByLabel('Group name').fill('Standup');
  await create.getByRole('checkbox', { name: 'Boris' }).check();
  await create.getByRole('checkbox', { name: 'Carl' }).check();
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(anna.page.getByRole('heading', { name: 'Standup' })).toBeVisible();

  await anna.page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(callWindow(anna.page, 'Standup')).toBeVisible();
  const rooms = [await acceptIncoming(boris.page), await acceptIncoming(carl.page)];
  for (const page of [anna.page, ...rooms]) {
    await expect(callWindow(page, 'Standup').getByText('3 participants')).toBeVisible();
    await expectReceivingFrom(page, 2);
  }

  // In the smallest call window (400×400, here the whole viewport) my own preview covers nobody's tile or name.
  await anna.page.setViewportSize({ width: 400, height: 400 });
  const annaWindow = callWindow(anna.page, 'Standup');
  const preview = annaWindow.getByRole('figure', { name: /^You/ });
  for (const name of ['Boris', 'Carl']) {
    const tile = annaWindow.getByRole('listitem').filter({ hasText: name });
    await expect(tile.getByText(name, { exact: true })).toBeVisible();
    expect(await overlap(preview, tile), `my preview over ${name}'s tile`).toBe(false);
  }

  // Carl leaves; the others go on.
  await callWindow(rooms[1]!, 'Standup').getByRole('button', { name: 'Hang up' }).click();
  await expect(callWindow(anna.page, 'Standup').getByText('2 participants')).toBeVisible();
  await expect(callWindow(rooms[0]!, 'Standup').getByText('2 participants')).toBeVisible();
  // Boris leaves too: Anna is alone, the call ends by itself.
  await callWindow(rooms[0]!, 'Standup').getByRole('button', { name: 'Hang up' }).click();
  await expect(callWindow(anna.page, 'Standup')).toBeHidden();
});

test('a call through coturn only: relay-only ICE, both sides still see and hear each other', async ({ browser }) => {
  // This server hands out TURN credentials for the run's coturn and tells browsers to use relays only.
  const { anna, boris } = await twoPeople(browser, RELAY_BASE_URL);
  await anna.getByRole('button', { name: 'Call', exact: true }).click();
  const meeting = await acceptIncoming(boris);
  for (const page of [anna, meeting]) {
    const figures = await expectReceivingFrom(page, 1);
    // The browser's end of the media path is a TURN relay.
    expect(figures.selectedPair?.[0]).toBe('relay');
  }
  await callWindow(meeting, 'Anna').getByRole('button', { name: 'Hang up' }).click();
  await expect(callWindow(anna, 'Boris')).toBeHidden();
});
