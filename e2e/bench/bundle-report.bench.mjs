// Bundle report (figures, not pass/fail; issue 13): why each chunk is as big as it is. Builds every client app in
// production with BUNDLE_REPORT=1 (webpack-bundle-analyzer: `<app>/bundle-report/report.html` to browse and
// `report.json`), then prints, per app, its largest chunks and what each is made of, by package, gzipped as the
// analyzer estimates it (the first-load bench measures what is really sent, brotli).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const APPS = ['shell', 'mf-messenger', 'mf-calls', 'mf-staff'];
const CHUNKS_SHOWN = 6;
const PACKAGES_SHOWN = 6;

const kilobytes = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** The package a module belongs to (the last `node_modules/` in its path), or the app's own source. */
function packageOf(path) {
  const at = path.lastIndexOf('node_modules/');
  if (at < 0) return path.includes('packages/') ? path.replace(/^.*packages\/([^/]+)\/.*$/, '@messenger/$1') : '(own source)';
  const rest = path.slice(at + 'node_modules/'.length).split('/');
  return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
}

/** Every module (a leaf of the analyzer's tree) under `node`, with its gzipped size. */
function* modules(node) {
  if (!node.groups || node.groups.length === 0) {
    yield node;
    return;
  }
  for (const child of node.groups) yield* modules(child);
}

for (const app of APPS) {
  const built = spawnSync(join(root, app, 'node_modules', '.bin', 'webpack'), ['--mode', 'production'], {
    cwd: join(root, app),
    env: { ...process.env, BUNDLE_REPORT: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (built.status !== 0) throw new Error(`${app}: the build failed`);
  const chunks = JSON.parse(readFileSync(join(root, app, 'bundle-report', 'report.json'), 'utf8'));
  const scripts = chunks.filter((chunk) => chunk.label.endsWith('.js')).sort((a, b) => (b.gzipSize ?? 0) - (a.gzipSize ?? 0));
  const total = scripts.reduce((sum, chunk) => sum + (chunk.gzipSize ?? 0), 0);
  console.log(`${app}: ${scripts.length} scripts, ${kilobytes(total)} gzipped in all (report: ${app}/bundle-report/report.html)`);
  for (const chunk of scripts.slice(0, CHUNKS_SHOWN)) {
    const byPackage = new Map();
    for (const module of modules(chunk)) {
      const name = packageOf(module.path ?? module.label);
      byPackage.set(name, (byPackage.get(name) ?? 0) + (module.gzipSize ?? 0));
    }
    const biggest = [...byPackage.entries()].sort((a, b) => b[1] - a[1]).slice(0, PACKAGES_SHOWN);
    console.log(`  ${kilobytes(chunk.gzipSize ?? 0).padStart(9)}  ${chunk.label}`);
    console.log(`             ${biggest.map(([name, size]) => `${name} ${kilobytes(size)}`).join(', ')}`);
  }
}
