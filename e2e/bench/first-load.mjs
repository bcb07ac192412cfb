// What a cold visit downloads: every script a page fetches until it has painted and the network is quiet, with
// the bytes as sent (compressed), per file. Shared by the first-load benchmark and the size gate in the e2e run.
import { chromium } from '@playwright/test';

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * Loads `path` in a fresh context (nothing cached) and returns the scripts it fetched, largest first: `url`,
 * `bytes` (the body as sent), `encoding`, and `afterReady` (fetched after `ready(page)`, which waits for what
 * the page must show, had returned: off the critical path). `storageState` signs in.
 */
export async function scriptsOfColdLoad(browser, base, path, { ready, storageState } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, storageState });
  try {
    const page = await context.newPage();
    const client = await context.newCDPSession(page);
    await client.send('Network.enable');
    const scripts = new Map();
    const sizes = new Map();
    client.on('Network.responseReceived', ({ requestId, type, response }) => {
      if (type === 'Script') scripts.set(requestId, { url: response.url, encoding: response.headers['content-encoding'] ?? response.headers['Content-Encoding'] ?? 'identity' });
    });
    // encodedDataLength counts headers too; the body as sent is what a budget should follow.
    client.on('Network.dataReceived', ({ requestId, encodedDataLength }) => sizes.set(requestId, (sizes.get(requestId) ?? 0) + encodedDataLength));
    const finished = new Map();
    client.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => finished.set(requestId, encodedDataLength));
    await page.goto(`${base}${path}`);
    if (ready) await ready(page);
    const beforeReady = new Set(finished.keys());
    await page.waitForLoadState('networkidle');
    const list = [];
    for (const [requestId, script] of scripts) {
      if (!finished.has(requestId)) continue;
      // The body's bytes on the wire: Chromium reports them per data chunk (0 for a body it read from its cache).
      const bytes = sizes.get(requestId) ?? 0;
      list.push({ url: new URL(script.url).pathname, encoding: script.encoding, bytes, afterReady: !beforeReady.has(requestId) });
    }
    return list.sort((a, b) => b.bytes - a.bytes);
  } finally {
    await context.close();
  }
}

export async function launchChromium() {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

export const kilobytes = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** Sums a load's scripts: all of them, and those the page waited for before it was ready. */
export function totals(scripts) {
  const sum = (list) => list.reduce((total, script) => total + script.bytes, 0);
  return { all: sum(scripts), critical: sum(scripts.filter((script) => !script.afterReady)), files: scripts.length };
}
