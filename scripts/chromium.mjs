// Finds (or, as root on Debian, installs) the Chromium the end-to-end tests drive.
// `npx playwright install` cannot work here: only the npm registry and Debian's packages are reachable.
import { existsSync } from 'node:fs';
import { isRoot, log, run, commandExists } from './lib.mjs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export function findChromium() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return CANDIDATES.find((path) => existsSync(path));
}

export async function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  if (!isRoot() || !commandExists('apt-get')) {
    throw new Error('Chromium is missing. Install Debian\'s "chromium" package (apt-get install chromium) or set CHROMIUM_PATH.');
  }
  log('Installing Chromium from Debian (apt-get)');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update', '-qq'], { env });
  await run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], { env });
  const installed = findChromium();
  if (!installed) throw new Error('apt-get finished but no Chromium binary was found');
  return installed;
}
