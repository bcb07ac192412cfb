// The tools the test command, the benchmarks and `npm run cluster` need from Debian: found where Debian puts them
// (or where an env var says), or — as root on Debian — installed with apt-get. `npx playwright install` and other
// downloads cannot work here: only the npm registry and Debian's packages are reachable.
import { existsSync } from 'node:fs';
import { isRoot, log, run, commandExists } from './lib.mjs';

const TOOLS = {
  // The Chromium the end-to-end tests and the call set-up bench drive.
  chromium: { label: 'Chromium', package: 'chromium', envVar: 'CHROMIUM_PATH', candidates: ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'] },
  // coturn's TURN relay, started by the end-to-end tests for relay-only calls (e2e/playwright.config.ts). Where
  // systemd runs, the package may also start a system coturn on 3478; the tests start their own on another port.
  coturn: { label: 'coturn', package: 'coturn', envVar: 'TURNSERVER_PATH', candidates: ['/usr/bin/turnserver', '/usr/local/bin/turnserver'] },
  // The load balancer of `npm run cluster` (a system HAProxy the package may start keeps Debian's own config).
  haproxy: { label: 'HAProxy', package: 'haproxy', envVar: 'HAPROXY_PATH', candidates: ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy', '/usr/bin/haproxy'] },
};

/** The tool's binary, or undefined when it is not installed. */
export function findTool(name) {
  const tool = TOOLS[name];
  if (process.env[tool.envVar]) return process.env[tool.envVar];
  return tool.candidates.find((path) => existsSync(path));
}

/** The tool's binary, installed from Debian first when missing (as root); a clear error otherwise. */
export async function ensureTool(name) {
  const tool = TOOLS[name];
  const found = findTool(name);
  if (found) return found;
  if (!isRoot() || !commandExists('apt-get')) {
    throw new Error(`${tool.label} is missing. Install Debian's "${tool.package}" package (apt-get install ${tool.package}) or set ${tool.envVar}.`);
  }
  log(`Installing ${tool.label} from Debian (apt-get)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update', '-qq'], { env });
  await run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', tool.package], { env });
  const installed = findTool(name);
  if (!installed) throw new Error(`apt-get finished but no ${tool.label} binary was found`);
  return installed;
}
