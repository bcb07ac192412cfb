import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPglite } from '../src/db/pglite.js';
import { checkpointIfDue } from '../src/db/pglite-checkpoints.js';
import { testDatabase } from './helpers/server.js';

const redo = async (db: Awaited<ReturnType<typeof openPglite>>) =>
  (await db.query<{ lsn: string }>('SELECT redo_lsn::text AS lsn FROM pg_control_checkpoint()'))[0]!.lsn;

// PGlite never checkpoints by itself while it runs (no checkpointer process): the server does it by WAL volume.
describe('checkpoints of the embedded database', () => {
  it('checkpoint once enough WAL was written since the last one, and not before', { skip: testDatabase !== 'pglite' }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'msgr-checkpoint-'));
    const db = await openPglite(dir);
    try {
      await db.query('CREATE TABLE notes (id serial PRIMARY KEY, text text NOT NULL)');
      await db.query('CHECKPOINT');
      const start = await redo(db);
      assert.equal(await checkpointIfDue(db, 2 ** 20), false, 'nothing written yet');
      assert.equal(await redo(db), start);

      // About 2 MB of WAL, in transactions as the server writes them.
      for (let i = 0; i < 40; i += 1) {
        await db.transaction(async (tx) => {
          await tx.query('INSERT INTO notes (text) SELECT repeat($1, 500) FROM generate_series(1, 100)', ['x']);
        });
      }
      // Left alone, nothing has checkpointed meanwhile: what a crash would replay keeps growing.
      assert.equal(await redo(db), start);
      assert.equal(await checkpointIfDue(db, 2 ** 20), true);
      assert.notEqual(await redo(db), start, 'the redo point moved: a crash replays only what follows it');
      assert.equal(await checkpointIfDue(db, 2 ** 20), false, 'nothing new since');
    } finally {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
