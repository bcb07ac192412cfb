import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openPglite } from '../src/db/pglite.js';
import { testDatabase } from './helpers/server.js';

// An acknowledgement means the message is on disk: a COMMIT must not return before an fsync of the write-ahead log.
describe('durability of a commit', () => {
  it('embedded PGlite in a folder fsyncs its write-ahead log before a COMMIT returns', { skip: testDatabase !== 'pglite' }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'msgr-durable-'));
    const db = await openPglite(dir);
    const synced: string[] = [];
    const realFsync = fs.fsyncSync;
    try {
      await db.query('CREATE TABLE notes (id serial PRIMARY KEY, text text NOT NULL)');
      fs.fsyncSync = (fd: number) => {
        synced.push(fs.readlinkSync(`/proc/self/fd/${fd}`));
        realFsync(fd);
      };
      await db.transaction(async (tx) => {
        await tx.query('INSERT INTO notes (text) VALUES ($1)', ['kept']);
      });
      const wal = synced.filter((path) => path.startsWith(join(dir, 'pg_wal')));
      assert.ok(wal.length >= 1, `no fsync of the WAL before COMMIT returned (synced: ${synced.join(', ') || 'nothing'})`);
      const settings = await db.query<{ fsync: string; sync: string }>(
        "SELECT current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS sync",
      );
      assert.deepEqual(settings[0], { fsync: 'on', sync: 'on' });
    } finally {
      fs.fsyncSync = realFsync;
      await db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('embedded PGlite restarted after a crash flushes the disk once instead of every file, and still syncs what it writes', { skip: testDatabase !== 'pglite' }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'msgr-crashed-'));
    const pglite = fileURLToPath(new URL('../src/db/pglite.ts', import.meta.url));
    // A process that commits 200 rows and dies without closing the database (SIGKILL), as a crashed server does.
    const crash = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { openPglite } from ${JSON.stringify(pglite)};
         const db = await openPglite(${JSON.stringify(dir)});
         await db.query('CREATE TABLE notes (id serial PRIMARY KEY, text text NOT NULL)');
         await db.transaction(async (tx) => { for (let i = 0; i < 200; i += 1) await tx.query('INSERT INTO notes (text) VALUES ($1)', ['n' + i]); });
         process.kill(process.pid, 'SIGKILL');`,
      ],
      { encoding: 'utf8', timeout: 120_000 },
    );
    assert.equal(crash.signal, 'SIGKILL', `the crashing process ended otherwise: ${crash.stderr}`);

    const files = (await readdir(dir, { recursive: true })).length;
    const synced: string[] = [];
    const realFsync = fs.fsyncSync;
    fs.fsyncSync = (fd: number) => {
      synced.push(fs.readlinkSync(`/proc/self/fd/${fd}`));
      realFsync(fd);
    };
    let db: Awaited<ReturnType<typeof openPglite>> | null = null;
    try {
      db = await openPglite(dir);
      const afterStart = synced.length;
      // PostgreSQL's crash recovery asks for an fsync of every file in the folder; here only what it wrote.
      assert.ok(files > 500, `the data folder has ${files} files`);
      assert.ok(afterStart < files / 10, `${afterStart} fsyncs while starting on ${files} files`);
      const [count] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM notes');
      assert.equal(count?.n, 200, 'what was committed before the crash is there');
      await db.transaction(async (tx) => {
        await tx.query('INSERT INTO notes (text) VALUES ($1)', ['after the restart']);
      });
      const wal = synced.slice(afterStart).filter((path) => path.startsWith(join(dir, 'pg_wal')));
      assert.ok(wal.length >= 1, 'a commit after the restart still fsyncs the write-ahead log');
    } finally {
      fs.fsyncSync = realFsync;
      await db?.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('PostgreSQL runs with fsync and synchronous commit on', { skip: testDatabase !== 'postgres' }, async () => {
    const client = new pg.Client({ connectionString: process.env.TEST_POSTGRES_URL });
    await client.connect();
    try {
      const { rows } = await client.query("SELECT current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS sync");
      assert.deepEqual(rows[0], { fsync: 'on', sync: 'on' });
    } finally {
      await client.end();
    }
  });
});
