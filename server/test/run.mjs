// Runs the server's integration tests twice: on embedded PGlite, then on real PostgreSQL.
// PostgreSQL comes from DATABASE_URL (default: the local server, database `test`); each test server creates and
// drops its own database there. Without a reachable PostgreSQL that half is skipped with a clear line — except
// under CI=true, where it must run.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const here = dirname(fileURLToPath(import.meta.url));
const files = readdirSync(here).filter((name) => name.endsWith('.test.ts')).map((name) => join(here, name));
const postgresUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const only = process.argv[2]; // optional: "pglite" or "postgres"

// werift's DTLS retransmission timers outlive closed peer connections for ~30 s (no sockets, only timers): a test
// file that made calls would idle that long before exiting.
const forceExit = ['--test-force-exit'];

function runSuite(database) {
  console.log(`\n▶ server integration tests on ${database}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...forceExit, ...files], {
    stdio: 'inherit',
    cwd: join(here, '..'),
    env: { ...process.env, TEST_DATABASE: database, TEST_POSTGRES_URL: postgresUrl, DATABASE_URL: '' },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

async function postgresReachable() {
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch (error) {
    return error.message;
  } finally {
    await client.end().catch(() => undefined);
  }
}

if (only !== 'postgres') runSuite('pglite');
if (only !== 'pglite') {
  const reachable = await postgresReachable();
  const shown = postgresUrl.replace(/\/\/[^@/]*@/, '//…@');
  if (reachable === true) runSuite('postgres');
  else if (process.env.CI === 'true') {
    console.error(`✗ PostgreSQL at ${shown} is unreachable (${reachable}); under CI=true the PostgreSQL run is required.`);
    process.exit(1);
  } else {
    console.log(`⚠ PostgreSQL variant SKIPPED: nothing reachable at ${shown} (${reachable}). Set DATABASE_URL to run it.`);
  }
}
