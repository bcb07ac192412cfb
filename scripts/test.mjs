// `npm test`: everything CI checks, in the order a failure is cheapest to find.
// Installs what the tests need (dependencies from the lockfile, Debian's Chromium, coturn and HAProxy when missing and we are root),
// then lint, type-check, unit tests, server integration tests (PGlite and PostgreSQL), the production build,
// the module-federation contract of each build, and end-to-end tests in Chromium against that build: the journeys
// tagged @cluster against a cluster of three nodes, the rest against one node (all of them against one node where
// the cluster's services are not running, outside CI).
import { buildStale, ensureDependencies, log, pnpm } from './lib.mjs';
import { clusterServices, notListening } from './listening.mjs';
import { ensureTool } from './debian-tools.mjs';

const only = new Set(process.argv.slice(2)); // e.g. `npm test -- unit e2e`
const timings = [];

async function step(name, work) {
  if (only.size > 0 && !only.has(name)) return;
  log(`test: ${name}`);
  const started = Date.now();
  await work();
  timings.push([name, ((Date.now() - started) / 1000).toFixed(1)]);
}

try {
  const startedAll = Date.now();
  await step('install', ensureDependencies);
  await step('lint', () => pnpm(['exec', 'eslint', '--max-warnings=0', '.']));
  // Two at once on our 2 cores: tsc and Jest each keep about one core busy (Jest's default on 2 cores is one
  // worker); measured 49 → 39 s and 41 → 21 s.
  await step('typecheck', () => pnpm(['-r', '--workspace-concurrency=2', 'run', 'typecheck']));
  await step('unit', () => pnpm(['exec', 'jest', '--ci', '--maxWorkers=2']));
  await step('server', async () => {
    // The load balancer of the node-loss test (server/test/node-loss.test.ts).
    const haproxy = await ensureTool('haproxy');
    await pnpm(['--filter', '@messenger/server', 'run', 'test'], { env: { ...process.env, HAPROXY_PATH: haproxy } });
  });
  await step('build', () => buildStale({ force: process.env.CI === 'true' }));
  await step('federation', () => pnpm(['exec', 'node', 'scripts/check-federation.mjs']));

  // The cluster's journeys run against the cluster (below) when it can start here, and against the one node
  // otherwise (or when only the e2e step was asked for), so that each journey runs once. The services are looked
  // for once, so that both steps agree.
  const clusterStep = only.size === 0 || only.has('e2e-cluster');
  const missing = clusterStep ? (await notListening(clusterServices())).map(([name]) => name) : [];
  const clusterRuns = clusterStep && (missing.length === 0 || process.env.CI === 'true');
  await step('e2e', async () => {
    const chromium = await ensureTool('chromium');
    // The TURN relay the calls tests go through (relay-only), started by the Playwright config.
    const turnserver = await ensureTool('coturn');
    await pnpm(['--filter', '@messenger/e2e', 'exec', 'playwright', 'test', ...(clusterRuns ? ['--grep-invert', '@cluster'] : [])], {
      env: { ...process.env, CHROMIUM_PATH: chromium, TURNSERVER_PATH: turnserver },
    });
  });
  await step('e2e-cluster', async () => {
    // The journeys of chatting, groups, calls and the staff area, against the product as a cluster (issue 11):
    // 3 nodes behind HAProxy, linked by NATS, their limits in Redis, on a fresh PostgreSQL database
    // (e2e/playwright.config.ts, E2E_CLUSTER). Tests tagged @cluster (e2e/tests/test.ts, CLUSTER).
    // Like the server's cluster test: skipped with a clear line where a service is missing, except under CI=true.
    if (!clusterRuns) {
      const where = only.size === 0 || only.has('e2e') ? 'the e2e step ran its journeys on one node' : 'its journeys did not run';
      log(`e2e-cluster: skipped (not running here: ${missing.join(', ')}); ${where}`);
      return;
    }
    const chromium = await ensureTool('chromium');
    const turnserver = await ensureTool('coturn');
    await ensureTool('haproxy');
    await pnpm(['--filter', '@messenger/e2e', 'exec', 'playwright', 'test', '--grep', '@cluster'], {
      env: { ...process.env, CHROMIUM_PATH: chromium, TURNSERVER_PATH: turnserver, E2E_CLUSTER: '1' },
    });
  });
  log('All tests passed');
  for (const [name, seconds] of timings) console.log(`  ${name.padEnd(12)} ${seconds.padStart(7)} s`);
  console.log(`  ${'total'.padEnd(12)} ${((Date.now() - startedAll) / 1000).toFixed(1).padStart(7)} s`);
} catch (error) {
  console.error(`\n✗ ${error.message}`);
  process.exit(1);
}
