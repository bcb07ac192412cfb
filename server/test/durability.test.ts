import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
