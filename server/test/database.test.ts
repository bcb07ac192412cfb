import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { openDatabase, type Db } from '../src/db/index.js';
import { MAX_PREPARED } from '../src/db/pglite-statements.js';
import { migrate, MIGRATION_LOCK } from '../src/db/migrate.js';
import { migrations } from '../src/db/migrations/index.js';
import { createPostgresDatabase, testDatabase } from './helpers/server.js';

// The database layer itself: statements are prepared once and then only bound and executed (on both drivers),
// so what matters is that every kind of value goes in and comes out as with a plain query, that a statement's
// error leaves the connection usable, and that the cache of prepared statements stays bounded.
describe(`the database layer (${testDatabase})`, () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  before(async () => {
    if (testDatabase === 'postgres') {
      const created = await createPostgresDatabase('msgr_dblayer');
      db = await openDatabase({ databaseUrl: created.databaseUrl });
      cleanup = created.dropDatabase;
    } else {
      const dataDir = mkdtempSync(join(tmpdir(), 'msgr-dblayer-'));
      db = await openDatabase({ dataDir });
      cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
    }
    await db.query(`CREATE TABLE layer_probe (id bigint PRIMARY KEY, tag uuid, note text, doc jsonb, seen timestamptz)`);
  });
  after(async () => {
    await db.close();
    await cleanup();
  });

  it('finds a database with every migration applied up to date, and applies nothing', async () => {
    assert.deepEqual(await migrate(db), []);
    const [applied] = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM schema_migrations');
    assert.equal(applied?.count, migrations.length);
  });

  // A node starting while another holds the migration lock (applying a migration this build does not know yet)
  // has nothing to wait for when its own migrations are all there.
  it('opens an up-to-date database while another process holds the migration lock', { skip: testDatabase !== 'postgres' }, async () => {
    const created = await createPostgresDatabase('msgr_migrated');
    const first = await openDatabase({ databaseUrl: created.databaseUrl });
    const holder = new pg.Client({ connectionString: created.databaseUrl });
    try {
      await holder.connect();
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      let deadline: NodeJS.Timeout | undefined;
      const opened = await Promise.race([
        openDatabase({ databaseUrl: created.databaseUrl }).then(async (second) => {
          await second.close();
          return 'opened';
        }),
        new Promise<string>((resolve) => (deadline = setTimeout(() => resolve('still waiting for the lock'), 20_000))),
      ]);
      clearTimeout(deadline);
      assert.equal(opened, 'opened');
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
      await first.close();
      await created.dropDatabase();
    }
  });

  it('passes every kind of value in and out of a prepared statement, the same on every run', async () => {
    const tag = randomUUID();
    const note = `it's "quoted" \\ and ünïcode ✓`;
    for (let run = 0; run < 8; run += 1) {
      // Past five runs PostgreSQL may switch a statement to its generic plan: the answers must not change.
      const rows = await db.query<{ ids: number[]; tag: string; note: string | null; doc: unknown; n: number }>(
        `SELECT $1::bigint[] AS ids, $2::uuid AS tag, $3::text AS note, $4::jsonb AS doc, cardinality($1::bigint[]) AS n`,
        [[1, 2, 2 ** 40], tag, run % 2 === 0 ? note : null, JSON.stringify({ a: [1, 'x'], b: null })],
      );
      assert.deepEqual(rows, [{ ids: [1, 2, 2 ** 40], tag, note: run % 2 === 0 ? note : null, doc: { a: [1, 'x'], b: null }, n: 3 }]);
    }
  });

  it('keeps the connection usable after a statement fails, inside and outside a transaction', async () => {
    await assert.rejects(db.query('SELECT $1::integer AS n', ['not a number']), /invalid input syntax/);
    assert.deepEqual(await db.query('SELECT $1::integer AS n', ['7']), [{ n: 7 }]);
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO layer_probe (id) VALUES ($1)', [1]);
        await tx.query('INSERT INTO layer_probe (id) VALUES ($1)', [1]);
      }),
      (error: { code?: string }) => error.code === '23505',
    );
    assert.deepEqual(await db.query('SELECT count(*)::int AS n FROM layer_probe WHERE id = $1', [1]), [{ n: 0 }], 'rolled back');
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO layer_probe (id, seen) VALUES ($1, now())', [1]);
    }, { genericPlans: true });
    assert.deepEqual(await db.query('SELECT id FROM layer_probe WHERE id = ANY($1::bigint[])', [[1, 2]]), [{ id: 1 }]);
    // Several statements without parameters still run at once.
    await db.query('UPDATE layer_probe SET note = $$a$$ WHERE id = 1; UPDATE layer_probe SET note = note || $$b$$ WHERE id = 1');
    assert.deepEqual(await db.query('SELECT note FROM layer_probe WHERE id = $1', [1]), [{ note: 'ab' }]);
  });

  it('stays correct past the most statements it keeps prepared', async () => {
    const distinct = MAX_PREPARED + 50;
    for (let index = 0; index < distinct; index += 1) {
      const [row] = await db.query<{ value: number }>(`SELECT $1::int + ${index} AS value`, [1]);
      assert.equal(row!.value, 1 + index);
    }
    // The first ones were closed to make room: they are prepared again, and answer the same.
    for (let index = 0; index < 5; index += 1) {
      const [row] = await db.query<{ value: number }>(`SELECT $1::int + ${index} AS value`, [2]);
      assert.equal(row!.value, 2 + index);
    }
  });
});
