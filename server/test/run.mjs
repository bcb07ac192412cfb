// Runs the server's integration tests twice, at the same time: on embedded PGlite and on real PostgreSQL.
// PostgreSQL comes from DATABASE_URL (default: the local server, database `test`); each test server creates and
// drops its own database there. Without a reachable PostgreSQL that half is skipped with a clear line — except
// under CI=true, where it must run.
import { spawn } from 'node:child_process';
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
// Two test files at a time per database (Node's default on 2 cores is one): a file spends much of its time waiting
// on its servers, sockets and disk syncs. Both suites alone, one at a time against two at a time, two pairs an hour
// apart: 320 → 247 s and 338 → 279 s (the cores 16–17 % idle, then 1–3 %).
const concurrency = ['--test-concurrency=2'];

/**
 * Runs the suite on one database in a child process; resolves with its exit status and everything it printed.
 * Both databases run at once (each test server has its own ports and its own database, so they cannot collide),
 * and each suite's report is printed whole when it ends rather than interleaved.
 */
function runSuite(database) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...forceExit, ...concurrency, ...files], {
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: join(here, '..'),
      env: { ...process.env, TEST_DATABASE: database, TEST_POSTGRES_URL: postgresUrl, DATABASE_URL: '', FORCE_COLOR: process.stdout.isTTY ? '1' : '0' },
    });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => resolve({ database, status: code ?? (signal ? 1 : 0), output: Buffer.concat(output) }));
  });
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

/**
 * Drops the databases that earlier runs on this machine left behind when they were stopped from outside (Ctrl-C,
 * a timeout's kill), before their servers could drop them. Each test database is named
 * `msgr_<kind>_<pid>_<random>` by the test process that made it, and is left alone while that process lives; only
 * on a PostgreSQL of this machine, where the pid means something.
 */
async function dropOrphanedDatabases() {
  if (!['127.0.0.1', 'localhost', '[::1]', ''].includes(new URL(postgresUrl).hostname)) return;
  const alive = (pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      return error.code === 'EPERM';
    }
  };
  const client = new pg.Client({ connectionString: postgresUrl });
  try {
    await client.connect();
    const { rows } = await client.query(`SELECT datname FROM pg_database WHERE datname ~ '^msgr_[a-z]+_[0-9]+_[0-9a-f]{8}$'`);
    const orphaned = rows.map((row) => row.datname).filter((name) => !alive(Number(name.split('_').at(-2))));
    for (const name of orphaned) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    if (orphaned.length > 0) console.log(`dropped ${orphaned.length} test database(s) left by stopped runs`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const suites = [];
if (only !== 'postgres') suites.push('pglite');
if (only !== 'pglite') {
  const reachable = await postgresReachable();
  const shown = postgresUrl.replace(/\/\/[^@/]*@/, '//…@');
  if (reachable === true) {
    suites.push('postgres');
    await dropOrphanedDatabases();
  } else if (process.env.CI === 'true') {
    console.error(`✗ PostgreSQL at ${shown} is unreachable (${reachable}); under CI=true the PostgreSQL run is required.`);
    process.exit(1);
  } else {
    console.log(`⚠ PostgreSQL variant SKIPPED: nothing reachable at ${shown} (${reachable}). Set DATABASE_URL to run it.`);
  }
}
console.log(`running the server integration tests on ${suites.join(' and ')} at once; each report follows when it ends`);
const started = Date.now();
const results = await Promise.all(
  suites.map((database) =>
    runSuite(database).then((result) => {
      console.log(`\n▶ server integration tests on ${database} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
      process.stdout.write(result.output);
      return result;
    }),
  ),
);
const failed = results.filter((result) => result.status !== 0);
if (failed.length > 0) {
  console.error(`\n✗ server integration tests failed on ${failed.map((result) => result.database).join(' and ')}`);
  process.exit(1);
}
