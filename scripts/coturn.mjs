// Finds (or, as root on Debian, installs) coturn's `turnserver`, the TURN relay the end-to-end tests start for
// calls in relay-only mode (e2e/playwright.config.ts). Only Debian's package is reachable here, as with Chromium.
import { existsSync } from 'node:fs';
import { isRoot, log, run, commandExists } from './lib.mjs';

const CANDIDATES = ['/usr/bin/turnserver', '/usr/local/bin/turnserver'];

export function findCoturn() {
  if (process.env.TURNSERVER_PATH) return process.env.TURNSERVER_PATH;
  return CANDIDATES.find((path) => existsSync(path));
}

export async function ensureCoturn() {
  const found = findCoturn();
  if (found) return found;
  if (!isRoot() || !commandExists('apt-get')) {
    throw new Error('coturn is missing. Install Debian\'s "coturn" package (apt-get install coturn) or set TURNSERVER_PATH.');
  }
  log('Installing coturn from Debian (apt-get)');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update', '-qq'], { env });
  // Where systemd runs, the package may also start a system coturn on 3478; the tests start their own on another port.
  await run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'coturn'], { env });
  const installed = findCoturn();
  if (!installed) throw new Error('apt-get finished but no turnserver binary was found');
  return installed;
}
