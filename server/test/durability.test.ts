import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { durableStartParams, openPglite, PGLITE_SHARED_BUFFERS } from '../src/db/pglite.js';
import { DurableNodeFS } from '../src/db/pglite-durable-fs.js';
import { ParallelFsync } from '../src/db/pglite-parallel-fsync.js';
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
      const settings = await db.query<{ fsync: string; sync: string; buffers: string }>(
        "SELECT current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS sync, current_setting('shared_buffers') AS buffers",
      );
      assert.deepEqual(settings[0], { fsync: 'on', sync: 'on', buffers: PGLITE_SHARED_BUFFERS });
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

  it("embedded PGlite's checkpoint has its data files fsynced (on a worker) before it syncs the WAL or the control file", { skip: testDatabase !== 'pglite' }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'msgr-checkpoint-'));
    const events: string[] = [];
    const path = (fd: number) => fs.readlinkSync(`/proc/self/fd/${fd}`).slice(dir.length + 1);
    let syncs: ParallelFsync | null = null;
    const watched = () => {
      syncs = new ParallelFsync();
      return {
        defer: (fd: number) => (events.push(`defer ${path(fd)}`), syncs!.defer(fd)),
        owes: (fd: number) => syncs!.owes(fd),
        barrier: () => (events.push('barrier'), syncs!.barrier()),
        close: () => syncs!.close(),
      };
    };
    const realFsync = fs.fsyncSync;
    const pg = await PGlite.create({
      fs: new DurableNodeFS(dir, watched),
      startParams: durableStartParams(),
    });
    try {
      await pg.exec('CREATE TABLE notes (id serial PRIMARY KEY, text text NOT NULL); CREATE INDEX ON notes (text)');
      await pg.exec("INSERT INTO notes (text) SELECT md5(n::text) FROM generate_series(1, 2000) AS n");
      fs.fsyncSync = (fd: number) => {
        // What the worker had not finished when this fsync started (the barrier must have waited for all of it).
        events.push(`sync ${path(fd)}`, `pending ${syncs!.pending()}`);
        realFsync(fd);
      };
      events.length = 0;
      await pg.exec('CHECKPOINT');
      const deferred = events.filter((event) => event.startsWith('defer '));
      assert.ok(deferred.some((event) => /^defer base\/\d+\/\d+$/.test(event)), `no data file's fsync went to the worker: ${events.join(', ')}`);
      assert.ok(deferred.every((event) => !/pg_wal|pg_control/.test(event)), 'the WAL and the control file are synced in place');
      // Every fsync made in place waits first for the data files' fsyncs handed out before it.
      let owed = 0;
      for (const event of events) {
        if (event.startsWith('defer ')) owed += 1;
        else if (event === 'barrier') owed = 0;
        else if (event.startsWith('sync ')) assert.equal(owed, 0, `${event} ran with ${owed} data-file fsyncs still handed out (${events.join(', ')})`);
        else assert.equal(event, 'pending 0', `an fsync in place started before the worker's were done (${events.join(', ')})`);
      }
      assert.ok(events.some((event) => event === 'sync global/pg_control'), 'the checkpoint synced the control file');
    } finally {
      fs.fsyncSync = realFsync;
      await pg.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the worker makes the fsyncs handed to it before a barrier returns', async () => {
    const syncs = new ParallelFsync();
    const dir = await mkdtemp(join(tmpdir(), 'msgr-fsync-'));
    const files = Array.from({ length: 20 }, (_, index) => fs.openSync(join(dir, `data-${index}`), 'w'));
    try {
      for (const file of files) {
        fs.writeSync(file, 'kept');
        syncs.defer(file);
      }
      assert.equal(syncs.owes(files[0]!), true);
      syncs.barrier();
      assert.equal(syncs.pending(), 0);
      assert.equal(syncs.owes(files[0]!), false);
    } finally {
      await syncs.close();
      for (const file of files) fs.closeSync(file);
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a failed fsync on the worker is thrown by the next barrier, and by every wait and fsync after it', async () => {
    const syncs = new ParallelFsync();
    syncs.defer(2 ** 30); // EBADF: a descriptor no process can have
    assert.throws(() => syncs.barrier(), { message: 'fsync of a data file failed: EBADF (errno 9)', code: 'EBADF' });
    // Linux reports a failed writeback once: nothing may be taken as synced after it, until a restart recovers.
    assert.throws(() => syncs.barrier(), { code: 'EBADF' });
    assert.throws(() => syncs.defer(0), { code: 'EBADF' });
    await assert.rejects(syncs.close(), { code: 'EBADF' });
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
