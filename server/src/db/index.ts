import { join } from 'node:path';
import type { Db } from './types.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';
import { migrate } from './migrate.js';

export type { Db, Tx, Queryable, Row } from './types.js';

/** Opens the configured database (PostgreSQL when a URL is given, else PGlite in dataDir) and migrates it. */
export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  /** Embedded only: whether commits are synced to disk (always, but for a benchmark measuring what that costs). */
  durable?: boolean;
  /** Embedded in memory only: the data folder to start from (tests start each server from one migrated copy). */
  pgliteTemplate?: Blob | undefined;
}): Promise<Db> {
  const db = options.databaseUrl
    ? await openPostgres(options.databaseUrl)
    : await openPglite(options.dataDir === undefined ? undefined : join(options.dataDir, 'db'), {
        durable: options.durable,
        ...(options.pgliteTemplate && options.dataDir === undefined ? { loadDataDir: options.pgliteTemplate } : {}),
      });
  try {
    await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
