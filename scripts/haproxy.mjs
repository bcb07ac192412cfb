// Finds (or, as root on Debian, installs) HAProxy, the load balancer `npm run cluster` puts in front of the nodes.
import { existsSync } from 'node:fs';
import { isRoot, log, run, commandExists } from './lib.mjs';

const CANDIDATES = ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy', '/usr/bin/haproxy'];

export function findHaproxy() {
  if (process.env.HAPROXY_PATH) return process.env.HAPROXY_PATH;
  return CANDIDATES.find((path) => existsSync(path));
}

export async function ensureHaproxy() {
  const found = findHaproxy();
  if (found) return found;
  if (!isRoot() || !commandExists('apt-get')) {
    throw new Error('HAProxy is missing. Install Debian\'s "haproxy" package (apt-get install haproxy) or set HAPROXY_PATH.');
  }
  log('Installing HAProxy from Debian (apt-get)');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update', '-qq'], { env });
  // Where systemd runs, the package also starts a system HAProxy with Debian's config; ours runs on its own.
  await run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'haproxy'], { env });
  const installed = findHaproxy();
  if (!installed) throw new Error('apt-get finished but no haproxy binary was found');
  return installed;
}
