// Call set-up benchmark (figures, not pass/fail): Anna calls Boris in Chromium (fake camera and microphone), Boris
// accepts; the time from his click on Accept to the first decoded remote video frame, on his side (the meeting
// tab the accept opens) and on hers, over 10 calls. Runs against the production build on a fresh database.
import { launchChromium, startBenchServer } from './server.mjs';

const CALLS = Number(process.env.BENCH_CALLS ?? 10);
const { base, api, signUp, stop } = await startBenchServer();

/** Remembers the page's peer connections, to read their statistics. */
function watchPeerConnections() {
  const Native = window.RTCPeerConnection;
  const made = [];
  window.__peerConnections = made;
  window.RTCPeerConnection = class extends Native {
    constructor(configuration) {
      super(configuration);
      made.push(this);
    }
  };
}

/** Resolves with the wall-clock time at which the page first has a decoded remote video frame (polled every 10 ms). */
function firstDecodedFrameAt() {
  return new Promise((resolve) => {
    const poll = async () => {
      for (const pc of window.__peerConnections ?? []) {
        if (pc.connectionState === 'closed') continue;
        const report = await pc.getStats();
        let decoded = false;
        report.forEach((entry) => {
          if (entry.type === 'inbound-rtp' && entry.kind === 'video' && entry.framesDecoded > 0) decoded = true;
        });
        if (decoded) return resolve(Date.now());
      }
      setTimeout(poll, 10);
    };
    void poll();
  });
}

/**
 * Where the meeting tab's time went: wall-clock times of its navigation milestones and of the `call:<stage>` marks
 * the calls remote sets (mf-calls/src/engine/stages.ts).
 */
function stageTimes() {
  const origin = performance.timeOrigin;
  const [navigation] = performance.getEntriesByType('navigation');
  const times = {};
  if (navigation) {
    times['html'] = origin + navigation.responseEnd;
    times['dom-content-loaded'] = origin + navigation.domContentLoadedEventEnd;
  }
  const remoteEntry = performance.getEntriesByType('resource').find((entry) => entry.name.includes('mf-calls') && entry.name.endsWith('remoteEntry.js'));
  if (remoteEntry) times['calls-remote-entry'] = origin + remoteEntry.responseEnd;
  for (const mark of performance.getEntriesByType('mark')) if (mark.name.startsWith('call:')) times[mark.name.slice(5)] = origin + mark.startTime;
  return times;
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

let browser;
try {
  const anna = await signUp('Anna');
  const boris = await signUp('Boris');
  const { chat } = await api('POST', '/chat/create', { token: anna.access_token, body: { chat_type: 'private', participants: [boris.id] } });

  browser = await launchChromium([
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    '--autoplay-policy=no-user-gesture-required',
    '--allow-loopback-in-peer-connection',
    '--disable-features=WebRtcHideLocalIpsWithMdns',
  ]);
  const open = async (person) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, permissions: ['camera', 'microphone'] });
    await context.addCookies([
      { name: 'msgr_access_token', value: person.access_token, url: base },
      { name: 'msgr_refresh_token', value: person.refresh_token, url: base },
    ]);
    await context.addInitScript(watchPeerConnections);
    const page = await context.newPage();
    await page.goto(`${base}/${chat.id}`);
    return page;
  };
  const annaPage = await open(anna);
  const borisPage = await open(boris);

  const callee = [];
  const caller = [];
  /** stage → its times after Accept, one per call */
  const stages = new Map();
  for (let i = 0; i < CALLS; i += 1) {
    await annaPage.getByRole('button', { name: 'Call', exact: true }).click();
    const incoming = borisPage.getByRole('alertdialog', { name: 'Incoming call' });
    await incoming.waitFor();
    const annaFrame = annaPage.evaluate(firstDecodedFrameAt);
    const opened = borisPage.context().waitForEvent('page');
    const accepted = Date.now();
    await incoming.getByRole('button', { name: 'Accept' }).click();
    const meeting = await opened;
    const borisFrameAt = await meeting.evaluate(firstDecodedFrameAt);
    callee.push(borisFrameAt - accepted);
    for (const [stage, at] of Object.entries(await meeting.evaluate(stageTimes))) {
      if (!stages.has(stage)) stages.set(stage, []);
      stages.get(stage).push(at - accepted);
    }
    caller.push((await annaFrame) - accepted);
    await annaPage.getByRole('dialog', { name: 'Boris' }).getByRole('button', { name: 'Hang up' }).click();
    await meeting.getByText('The call has ended.').waitFor();
    await meeting.close();
    await annaPage.getByRole('dialog', { name: 'Boris' }).waitFor({ state: 'hidden' });
  }
  const line = (name, values) =>
    `${name}: p50 ${percentile(values, 50)} ms, p90 ${percentile(values, 90)} ms (min ${Math.min(...values)}, max ${Math.max(...values)})`;
  console.log(`\nCall set-up, accept → first decoded remote video frame, ${CALLS} calls through the SFU:`);
  console.log(`  ${line('callee (the meeting tab the accept opens)', callee)}`);
  console.log(`  ${line('caller', caller)}`);
  console.log('  the meeting tab, stage by stage (ms after Accept; p50 / p90):');
  const ordered = [...stages.entries()].sort((a, b) => percentile(a[1], 50) - percentile(b[1], 50));
  for (const [stage, values] of ordered) console.log(`    ${stage.padEnd(20)} ${String(Math.round(percentile(values, 50))).padStart(6)} / ${Math.round(percentile(values, 90))}`);
  console.log(`    ${'first decoded frame'.padEnd(20)} ${String(percentile(callee, 50)).padStart(6)} / ${percentile(callee, 90)}`);
} finally {
  await browser?.close();
  stop();
}
