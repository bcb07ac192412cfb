// Helpers shared by the top-level commands (start, test, dev, bench).
// They need nothing but Node and npm: pnpm itself comes through npx, pinned.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, readdirSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const PNPM_VERSION = '10.34.9';

export function log(message) {
  process.stdout.write(`\n\u001b[1m▶ ${message}\u001b[0m\n`);
}

/** Runs a command to completion, inheriting stdio; throws on a non-zero exit. */
export function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', cwd: root, ...options });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`));
    });
  });
}

export function pnpm(args, options = {}) {
  return run('npx', ['-y', `pnpm@${PNPM_VERSION}`, ...args], options);
}

/** Installs the workspace's dependencies when the lockfile changed since the last install. */
export async function ensureDependencies() {
  const lock = join(root, 'pnpm-lock.yaml');
  const stamp = join(root, 'node_modules', '.install-stamp');
  const want = hashFiles([lock, ...workspaceManifests()]);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === want) return;
  log('Installing dependencies (pnpm, from the lockfile)');
  await pnpm(['install', '--frozen-lockfile', '--prefer-offline']);
  writeFileSync(stamp, want);
}

function workspaceManifests() {
  const dirs = ['.', 'shell', 'mf-messenger', 'mf-calls', 'mf-staff', 'server', 'e2e'];
  for (const name of readdirSync(join(root, 'packages'))) dirs.push(join('packages', name));
  return dirs.map((dir) => join(root, dir, 'package.json')).filter((file) => existsSync(file));
}

function hashFiles(files) {
  const hash = createHash('sha256');
  for (const file of files) hash.update(file).update(existsSync(file) ? readFileSync(file) : '');
  return hash.digest('hex');
}

/** The apps `npm start` serves, in build order (shared code first). */
export const apps = ['server', 'shell', 'mf-messenger', 'mf-calls', 'mf-staff'];
/** What each kind of app is built from besides its own folder: the server takes the wire contract only. */
const clientInputs = ['packages/shared', 'packages/router', 'packages/protocol', 'packages/build-config'];
const serverInputs = ['packages/protocol'];

/** Newest modification time under a folder, skipping build output and dependencies. */
function newestMtime(dir) {
  let newest = 0;
  const walk = (path) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
      const full = join(path, entry.name);
      if (entry.isDirectory()) walk(full);
      else newest = Math.max(newest, statSync(full).mtimeMs);
    }
  };
  if (existsSync(dir)) walk(dir);
  return newest;
}

/** Builds every app whose sources (or the shared packages) changed since its last build. */
export async function buildStale({ force = false } = {}) {
  const newestOf = (dirs) => Math.max(...dirs.map((dir) => newestMtime(join(root, dir))));
  const clientShared = newestOf(clientInputs);
  const serverShared = newestOf(serverInputs);
  const stale = apps.filter((app) => {
    const stamp = join(root, app, 'dist', '.build-stamp');
    if (force || !existsSync(stamp)) return true;
    const built = statSync(stamp).mtimeMs;
    return Math.max(newestMtime(join(root, app)), app === 'server' ? serverShared : clientShared) > built;
  });
  if (stale.length === 0) return;
  log(`Building ${stale.join(', ')}`);
  const filters = stale.flatMap((app) => ['--filter', `./${app}`]);
  await pnpm([...filters, '--workspace-concurrency=1', 'run', 'build']);
  for (const app of stale) writeFileSync(join(root, app, 'dist', '.build-stamp'), new Date().toISOString());
}

export function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

export function commandExists(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}
