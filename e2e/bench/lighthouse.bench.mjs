// Lighthouse benchmark (figures, not pass/fail; issue 13): performance, accessibility and best-practices scores of
// the sign-in page, the signed-in chat list and an open chat, with Lighthouse's desktop preset in Debian's
// Chromium against the production build (fresh database, like `npm start`). Each page is audited in a new browser
// profile holding only the session cookies, so the load is cold. Prints each score with the metrics and the
// audits that cost points.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomInt } from 'node:crypto';
import { chromium } from '@playwright/test';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { fillChat, startBenchServer } from './server.mjs';

const CATEGORIES = ['performance', 'accessibility', 'best-practices'];
const METRICS = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'];

/** Audits `url` in a new profile that holds `cookies` (none for the sign-in page). */
async function audit(url, cookies) {
  const profile = mkdtempSync(join(tmpdir(), 'msgr-lighthouse-'));
  const port = 19_000 + randomInt(0, 900);
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--remote-debugging-port=${port}`],
  });
  try {
    if (cookies.length > 0) await context.addCookies(cookies);
    // The profile is new, so nothing is cached; Lighthouse must not clear its storage, which holds the session.
    const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', disableStorageReset: true, onlyCategories: CATEGORIES }, desktopConfig);
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    return result.lhr;
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

function report(name, lhr) {
  const scores = CATEGORIES.map((id) => `${id} ${Math.round((lhr.categories[id]?.score ?? 0) * 100)}`).join(', ');
  console.log(`${name}: ${scores}`);
  const metrics = METRICS.map((id) => `${id.replace(/-/g, ' ')} ${lhr.audits[id]?.displayValue ?? '?'}`).join(', ');
  console.log(`  ${metrics}`);
  for (const category of CATEGORIES) {
    const missed = lhr.categories[category].auditRefs
      .filter((ref) => ref.weight > 0 && lhr.audits[ref.id].score !== null && lhr.audits[ref.id].score < 0.9)
      .map((ref) => `${ref.id} (${lhr.audits[ref.id].displayValue ?? Math.round(lhr.audits[ref.id].score * 100)})`);
    if (missed.length > 0) console.log(`  ${category} loses points on: ${missed.join(', ')}`);
  }
  // Which elements an accessibility audit failed on, so the cause can be found.
  for (const ref of lhr.categories.accessibility.auditRefs.filter((candidate) => lhr.audits[candidate.id].score === 0)) {
    for (const item of (lhr.audits[ref.id].details?.items ?? []).slice(0, 3)) {
      console.log(`    ${ref.id}: ${item.node?.snippet ?? ''} — ${(item.node?.explanation ?? '').split('\n').slice(0, 2).join(' ')}`);
    }
  }
}

const { base, api, signUp, stop } = await startBenchServer();
try {
  const anna = await signUp('Anna');
  const boris = await signUp('Boris');
  await api('POST', '/user/contacts/add', { token: boris.access_token, body: { user_phone: anna.phone, name: 'Anna' } });
  const { chat } = await api('POST', '/chat/create', { token: anna.access_token, body: { chat_type: 'private', participants: [boris.id] } });
  await fillChat(base, anna.access_token, chat.id, 200);
  const session = [
    { name: 'msgr_access_token', value: boris.access_token, url: base },
    { name: 'msgr_refresh_token', value: boris.refresh_token, url: base },
  ];
  report('sign-in page (/login)', await audit(`${base}/login`, []));
  report('chat list, signed in (/)', await audit(`${base}/`, session));
  report(`open chat, 200 messages (/${chat.id})`, await audit(`${base}/${chat.id}`, session));
} finally {
  stop();
}
