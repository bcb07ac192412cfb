// Long-history benchmark (figures, not pass/fail): a chat of 10 000 messages opened in Chromium.
// Reports time to the first painted message, the DOM size, and whether scrolling up (loading older pages)
// and back down keeps the message nodes bounded and the reading position still.
// Runs against the production build, started here on a fresh database, like `npm start`.
import { fillChat, launchChromium, startBenchServer } from './server.mjs';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 10_000);
const { base, api, signUp, stop } = await startBenchServer();

const percent = (value) => `${value.toFixed(0)}`;

try {
  const anna = await signUp('Anna');
  const boris = await signUp('Boris');
  await api('POST', '/user/contacts/add', { token: anna.access_token, body: { user_phone: boris.phone, name: 'Boris' } });
  const { chat } = await api('POST', '/chat/create', { token: anna.access_token, body: { chat_type: 'private', participants: [boris.id] } });
  const fillStarted = performance.now();
  await fillChat(base, anna.access_token, chat.id, MESSAGES);
  console.log(`filled a chat with ${MESSAGES} messages in ${((performance.now() - fillStarted) / 1000).toFixed(1)} s`);

  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addCookies([
    { name: 'msgr_access_token', value: boris.access_token, url: base },
    { name: 'msgr_refresh_token', value: boris.refresh_token, url: base },
  ]);
  const page = await context.newPage();
  const opened = performance.now();
  await page.goto(`${base}/${chat.id}`);
  const log = page.getByRole('log', { name: 'Messages' });
  await log.getByText(`Message ${MESSAGES}`, { exact: true }).waitFor();
  const firstPaint = performance.now() - opened;
  const navigationTiming = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    return { domContentLoaded: nav?.domContentLoadedEventEnd ?? 0 };
  });
  const count = () =>
    page.evaluate(() => ({ bubbles: document.querySelectorAll('.msg-bubble-row').length, nodes: document.getElementsByTagName('*').length }));
  const atOpen = await count();

  // Scroll up through the history: older pages load; the DOM must stay bounded.
  let maxBubbles = atOpen.bubbles;
  let maxNodes = atOpen.nodes;
  const scroller = page.locator('.msg-scroller').first();
  const scrollSteps = 60;
  const scrollStarted = performance.now();
  for (let i = 0; i < scrollSteps; i += 1) {
    await scroller.evaluate((element) => element.scrollBy(0, -element.clientHeight * 2));
    await page.waitForTimeout(60);
    const now = await count();
    maxBubbles = Math.max(maxBubbles, now.bubbles);
    maxNodes = Math.max(maxNodes, now.nodes);
  }
  const scrolledMs = performance.now() - scrollStarted;

  // Reading position stays still while a page is prepended: note the top message, load more, compare.
  const topBefore = await page.evaluate(() => {
    const rows = [...document.querySelectorAll('.msg-bubble-row')];
    const box = document.querySelector('.msg-scroller').getBoundingClientRect();
    const visible = rows.find((row) => row.getBoundingClientRect().bottom > box.top + 40);
    return visible ? { id: visible.dataset.messageId, top: visible.getBoundingClientRect().top } : null;
  });
  await page.waitForTimeout(800);
  const topAfter = await page.evaluate((id) => {
    const row = document.querySelector(`.msg-bubble-row[data-message-id="${id}"]`);
    return row ? row.getBoundingClientRect().top : null;
  }, topBefore?.id);

  // And back down to the newest.
  await page.getByRole('button', { name: /Scroll/ }).click();
  await log.getByText(`Message ${MESSAGES}`, { exact: true }).waitFor();
  const atEnd = await count();
  await browser.close();

  console.log(`open /{chat} to the newest message painted: ${percent(firstPaint)} ms (DOMContentLoaded ${percent(navigationTiming.domContentLoaded)} ms)`);
  console.log(`at open: ${atOpen.bubbles} message nodes, ${atOpen.nodes} DOM elements`);
  console.log(`scrolling up ${scrollSteps} × 2 screens (${(scrolledMs / 1000).toFixed(1)} s): at most ${maxBubbles} message nodes, ${maxNodes} DOM elements`);
  console.log(
    `reading position while older pages load: ${topBefore && topAfter !== null ? `moved ${Math.abs(topAfter - topBefore.top).toFixed(1)} px` : 'not measurable'}`,
  );
  console.log(`back at the newest: ${atEnd.bubbles} message nodes, ${atEnd.nodes} DOM elements`);
} finally {
  stop();
}
