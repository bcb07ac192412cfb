// Checks the federation contract of each production build (run after the build step of `npm test`):
// every app shares the same singletons, each remote exposes what the shell loads, and the shell bakes in no
// remote address (they come from /remotes.json at run time). Every script and style sheet is also there
// precompressed (.br and .gz, the same bytes once decoded), which the server sends to browsers that accept them.
import { readFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { root } from './lib.mjs';

// Shared as singletons by every app that uses them; the first four by every app, which all render and translate.
const SINGLETONS = ['react', '@messenger/shared', 'i18next', 'react-i18next', 'react-dom', '@messenger/router', 'zustand'];
const REQUIRED = new Set(SINGLETONS.slice(0, 4));
const EXPOSES = {
  'mf-messenger': ['./ChatsTab', './ContactsTab', './ProfileTab', './ChatPage'],
  'mf-calls': ['./CallsTab'],
  'mf-staff': ['./StatisticsPage'],
};

const problems = [];
const versions = new Map();

for (const app of ['shell', ...Object.keys(EXPOSES)]) {
  const manifestPath = join(root, app, 'dist', 'mf-manifest.json');
  if (!existsSync(manifestPath)) {
    problems.push(`${app}: no dist/mf-manifest.json (was it built?)`);
    continue;
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const shared = new Map(manifest.shared.map((entry) => [entry.name, entry]));
  for (const name of SINGLETONS) {
    const entry = shared.get(name);
    if (!entry) {
      if (REQUIRED.has(name)) problems.push(`${app}: does not share ${name}`);
      continue;
    }
    if (entry.singleton !== true) problems.push(`${app}: ${name} is shared but not as a singleton`);
    const seen = versions.get(name);
    if (seen && seen.version !== entry.version) problems.push(`${name}: ${app} has ${entry.version}, ${seen.app} has ${seen.version}`);
    versions.set(name, { app, version: entry.version });
  }
  if (app in EXPOSES) {
    const exposed = new Set(manifest.exposes.map((entry) => entry.path));
    for (const path of EXPOSES[app]) if (!exposed.has(path)) problems.push(`${app}: does not expose ${path}`);
    if (!existsSync(join(root, app, 'dist', 'remoteEntry.js'))) problems.push(`${app}: no remoteEntry.js`);
  } else if ((manifest.remotes ?? []).length > 0) {
    problems.push(`shell: build names remotes ${manifest.remotes.map((remote) => remote.alias ?? remote.federationContainerName)}; they must come from /remotes.json`);
  }
}

// The shell's bundles must not contain a remote's address.
const shellDist = join(root, 'shell', 'dist');
if (existsSync(shellDist)) {
  for (const file of readdirSync(shellDist).filter((name) => name.endsWith('.js'))) {
    const text = readFileSync(join(shellDist, file), 'utf8');
    if (/remotes\/mf-[a-z]+\/(mf-manifest\.json|remoteEntry\.js)/.test(text)) problems.push(`shell: ${file} contains a remote's address`);
  }
}

// Precompressed copies of every script, style sheet and manifest of any size worth it (the build's PrecompressPlugin).
for (const app of ['shell', ...Object.keys(EXPOSES)]) {
  const dist = join(root, app, 'dist');
  if (!existsSync(dist)) continue;
  for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(js|css|json)$/.test(entry.name)) continue;
    const file = join(entry.parentPath, entry.name);
    const content = readFileSync(file);
    if (content.length < 1024) continue;
    for (const [suffix, decode] of [['.br', brotliDecompressSync], ['.gz', gunzipSync]]) {
      if (!existsSync(file + suffix)) problems.push(`${app}: ${entry.name} has no ${suffix} beside it`);
      else if (!decode(readFileSync(file + suffix)).equals(content)) problems.push(`${app}: ${entry.name}${suffix} is stale`);
    }
  }
}

if (problems.length > 0) {
  console.error(`Federation contract broken:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`Federation contract holds: every app shares ${SINGLETONS.join(', ')} as singletons of one version; remotes expose what the shell loads.`);
