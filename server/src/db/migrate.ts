import type { Db } from './types.js';
import { migrations } from './migrations/index.js';

// Any constant works; it only has to be the same for every server process sharing one PostgreSQL.
export const MIGRATION_LOCK = 7_311_402;

/**
 * Whether every migration of this build is applied already: the usual case at a start, and a restart's path.
 * Two reads instead of a transaction per migration, each taking the lock: 41–62 ms of a start on PGlite for the
 * 14 transactions, 9–11 ms for the reads (2026-11-28), and no wait for a lock another node holds while it applies
 * a migration this build does not know. A version's row commits with its migration, so a row seen is a migration
 * done. A database ahead of this build (a newer node migrated it) is up to date for it too.
 */
async function upToDate(db: Db): Promise<boolean> {
  const [table] = await db.query<{ present: boolean }>("SELECT to_regclass('schema_migrations') IS NOT NULL AS present");
  if (!table?.present) return false;
  const rows = await db.query<{ version: number }>('SELECT version FROM schema_migrations');
  const applied = new Set(rows.map((row) => Number(row.version)));
  return migrations.every((migration) => applied.has(migration.version));
}

/** Applies, in order and each in its own transaction, every migration the database has not seen yet. */
export async function migrate(db: Db): Promise<string[]> {
  if (await upToDate(db)) return [];
  // Under the same lock: nodes of a cluster starting together on a fresh database raced on this very table
  // (`CREATE TABLE IF NOT EXISTS` is not safe against a concurrent one: a duplicate key in pg_type).
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  });
  const applied: string[] = [];
  for (const migration of migrations) {
    const done = await db.transaction(async (tx) => {
      // Two servers starting together against one PostgreSQL must not both apply a migration.
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const seen = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version]);
      if (seen.length > 0) return false;
      for (const statement of migration.statements) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      return true;
    });
    if (done) applied.push(migration.name);
  }
  return applied;
}
