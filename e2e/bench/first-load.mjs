// What a cold visit downloads: every script a page fetches until it has painted and no script has been asked
// for a while, with the bytes as sent (compressed), per file. Shared by the first-load benchmark and the size
// gate in the e2e run.
/** No new script for this long after the page was ready: the load is over (generous for a busy machine). */
const QUIET_MS = 1_500;
const DEADLINE_MS = 60_000;

/**
 * Loads `path` in a fresh context (nothing cached) and returns the scripts it fetched, largest first: `url`,
 * `bytes` (the body as sent) and `encoding`. `ready(page)` waits for what the page must show; `storageState`
 * signs in. Throws when a script never finished.
 */
export async function scriptsOfColdLoad(browser, base, path, { ready, storageState } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, storageState });
  try {
    const page = await context.newPage();
    const client = await context.newCDPSession(page);
    await client.send('Network.enable');
    const scripts = new Map();
    let lastAsked = performance.now();
    client.on('Network.requestWillBeSent', ({ requestId, type, request }) => {
      if (type !== 'Script') return;
      scripts.set(requestId, { url: new URL(request.url).pathname, encoding: 'identity', bytes: 0, done: false });
      lastAsked = performance.now();
    });
    client.on('Network.responseReceived', ({ requestId, response }) => {
      const script = scripts.get(requestId);
      if (script) script.encoding = response.headers['content-encoding'] ?? response.headers['Content-Encoding'] ?? 'identity';
    });
    // The body's bytes on the wire, per data chunk (encodedDataLength at the end would count headers too).
    client.on('Network.dataReceived', ({ requestId, encodedDataLength }) => {
      const script = scripts.get(requestId);
      if (script) script.bytes += encodedDataLength;
    });
    const finish = ({ requestId }) => {
      const script = scripts.get(requestId);
      if (script) script.done = true;
    };
    client.on('Network.loadingFinished', finish);
    client.on('Network.loadingFailed', finish);
    await page.goto(`${base}${path}`);
    if (ready) await ready(page);
    const deadline = performance.now() + DEADLINE_MS;
    for (;;) {
      const pending = [...scripts.values()].filter((script) => !script.done);
      if (pending.length === 0 && performance.now() - lastAsked >= QUIET_MS) break;
      if (performance.now() > deadline) throw new Error(`scripts still loading after ${DEADLINE_MS} ms: ${pending.map((script) => script.url).join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return [...scripts.values()].map(({ url, encoding, bytes }) => ({ url, encoding, bytes })).sort((a, b) => b.bytes - a.bytes);
  } finally {
    await context.close();
  }
}

export const kilobytes = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** Sums a load's scripts. */
export function totals(scripts) {
  return { all: scripts.reduce((total, script) => total + script.bytes, 0), files: scripts.length };
}
