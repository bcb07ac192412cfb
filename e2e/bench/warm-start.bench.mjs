// Warm-start benchmark (figures, not pass/fail; issue 13): how long after navigation the signed-in chat list is
// painted, and how long a chat of 1 000 messages takes to show them once clicked — cold (a new browser profile:
// nothing cached), warm (the same profile reloaded: scripts from the HTTP cache, the last visit's state from
// IndexedDB), and warm without that state (HTTP cache only: what the local state adds). The warm loads again with
// 150 ms of round-trip latency (Chromium's network emulation), where the server is no longer next door.
// p50/p90 over BENCH_LOADS profiles. Times are the page's own (performance.now() from navigation start, or from
// the click), checked every animation frame; warm loads come after two unmeasured visits (a returning person's
// browser has compiled the scripts before). Production build, fresh database, like `npm start`.
import { fillChat, launchChromium, startBenchServer } from './server.mjs';

const LOADS = Number(process.env.BENCH_LOADS ?? 10);
const MESSAGES = 1_000;
const OTHER_CHATS = 20;
const LATENCY_MS = 150;
const { base, api, signUp, stop } = await startBenchServer();

/** Waits, in the page, for the chat list's row of `name`: when it was painted, and whether the list had answered. */
function chatListPainted(page, name) {
  return page.evaluate(
    (name) =>
      new Promise((resolve) => {
        const check = () => {
          if ([...document.querySelectorAll('a')].some((link) => link.textContent?.includes(name))) {
            const list = performance.getEntriesByType('resource').find((entry) => entry.name.includes('/api/chat/list'));
            resolve({ painted: performance.now(), listAnswered: list ? list.responseEnd : null });
          } else requestAnimationFrame(check);
        };
        check();
      }),
    name,
  );
}

/** Clicks the chat's row in the page and waits for its newest message: milliseconds from the click. */
function chatOpened(page, name, newest) {
  return page.evaluate(
    ({ name, newest }) =>
      new Promise((resolve) => {
        const link = [...document.querySelectorAll('a')].find((candidate) => candidate.textContent?.includes(name));
        const start = performance.now();
        link.click();
        const check = () => {
          if ([...document.querySelectorAll('.msg-bubble-text')].some((text) => text.textContent === newest)) resolve(performance.now() - start);
          else requestAnimationFrame(check);
        };
        check();
      }),
    { name, newest },
  );
}

/** Waits until the page's session cache holds the chat list and one opened chat. */
async function cacheSaved(page) {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const saved = await page.evaluate(
      () =>
        new Promise((resolve) => {
          const opening = indexedDB.open('msgr-cache');
          opening.onerror = () => resolve(false);
          opening.onsuccess = () => {
            const db = opening.result;
            if (!db.objectStoreNames.contains('sessions')) return resolve(false);
            const reading = db.transaction('sessions').objectStore('sessions').getAll();
            reading.onsuccess = () => {
              db.close();
              resolve(reading.result.some((record) => record.chats.length > 0 && record.threads.length > 0));
            };
            reading.onerror = () => resolve(false);
          };
        }),
    );
    if (saved) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the session cache was never saved');
}

const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
const summary = (values) => `p50 ${quantile(values, 0.5).toFixed(0)} ms, p90 ${quantile(values, 0.9).toFixed(0)} ms`;

try {
  const anna = await signUp('Anna');
  const boris = await signUp('Boris');
  await api('POST', '/user/contacts/add', { token: boris.access_token, body: { user_phone: anna.phone, name: 'Anna' } });
  const { chat } = await api('POST', '/chat/create', { token: anna.access_token, body: { chat_type: 'private', participants: [boris.id] } });
  // A list of some length, with Anna's chat the newest.
  for (let i = 0; i < OTHER_CHATS; i += 1) {
    const other = await signUp(`Person ${i}`);
    const { chat: theirs } = await api('POST', '/chat/create', { token: other.access_token, body: { chat_type: 'private', participants: [boris.id] } });
    await fillChat(base, other.access_token, theirs.id, 1);
  }
  await fillChat(base, anna.access_token, chat.id, MESSAGES);
  const newest = `Message ${MESSAGES}`;

  const browser = await launchChromium();
  const figures = { cold: [], warm: [], bare: [], slowWarm: [], slowBare: [], coldOpen: [], warmOpen: [], slowOpen: [], warmBeforeList: 0, slowBeforeList: 0 };
  const paintAfterLoad = async (page) => {
    await page.goto(`${base}/`, { waitUntil: 'commit' });
    return chatListPainted(page, 'Anna');
  };
  /** Drops the cached state from a page of the app that never opens it, so the next load has the HTTP cache only. */
  const forgetState = async (page) => {
    await page.goto(`${base}/privacy`);
    await page.evaluate(
      () =>
        new Promise((resolve, reject) => {
          const deleting = indexedDB.deleteDatabase('msgr-cache');
          deleting.onsuccess = resolve;
          deleting.onerror = () => reject(deleting.error);
          deleting.onblocked = () => reject(new Error('the cache is still open'));
        }),
    );
  };
  for (let load = 0; load < LOADS; load += 1) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addCookies([
      { name: 'msgr_access_token', value: boris.access_token, url: base },
      { name: 'msgr_refresh_token', value: boris.refresh_token, url: base },
    ]);
    const page = await context.newPage();
    const network = await context.newCDPSession(page);
    await network.send('Network.enable');
    const latency = (ms) => network.send('Network.emulateNetworkConditions', { offline: false, latency: ms, downloadThroughput: -1, uploadThroughput: -1 });

    figures.cold.push((await paintAfterLoad(page)).painted);
    figures.coldOpen.push(await chatOpened(page, 'Anna', newest));
    await cacheSaved(page);
    // A returning person's browser has compiled the scripts before: Chromium keeps compiled code for a script
    // from its second run on, so two visits come first, unmeasured.
    for (let visit = 0; visit < 2; visit += 1) {
      await paintAfterLoad(page);
      await cacheSaved(page);
    }
    const warm = await paintAfterLoad(page);
    figures.warm.push(warm.painted);
    if (warm.listAnswered === null || warm.listAnswered > warm.painted) figures.warmBeforeList += 1;
    figures.warmOpen.push(await chatOpened(page, 'Anna', newest));
    await cacheSaved(page);

    await latency(LATENCY_MS);
    const slow = await paintAfterLoad(page);
    figures.slowWarm.push(slow.painted);
    if (slow.listAnswered === null || slow.listAnswered > slow.painted) figures.slowBeforeList += 1;
    figures.slowOpen.push(await chatOpened(page, 'Anna', newest));
    await forgetState(page);
    figures.slowBare.push((await paintAfterLoad(page)).painted);
    await latency(0);
    await forgetState(page);
    figures.bare.push((await paintAfterLoad(page)).painted);
    await context.close();
  }
  await browser.close();

  console.log(`chat list painted after navigation (${OTHER_CHATS + 1} chats), ${LOADS} profiles:`);
  console.log(`  cold (new profile):                ${summary(figures.cold)}`);
  console.log(`  warm (same profile):               ${summary(figures.warm)}; before the server's list arrived in ${figures.warmBeforeList} of ${LOADS}`);
  console.log(`  warm, HTTP cache only:             ${summary(figures.bare)}`);
  console.log(`  warm, ${LATENCY_MS} ms round trips:          ${summary(figures.slowWarm)}; before the server's list arrived in ${figures.slowBeforeList} of ${LOADS}`);
  console.log(`  warm, HTTP cache only, ${LATENCY_MS} ms:     ${summary(figures.slowBare)}`);
  console.log(`chat of ${MESSAGES} messages, click to its newest message painted:`);
  console.log(`  first open (from the server):      ${summary(figures.coldOpen)}`);
  console.log(`  seen before (from the cache):      ${summary(figures.warmOpen)}`);
  console.log(`  seen before, ${LATENCY_MS} ms round trips:    ${summary(figures.slowOpen)}`);
} finally {
  stop();
}
