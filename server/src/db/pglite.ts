import { mkdirSync } from 'node:fs';
import { PGlite, types } from '@electric-sql/pglite';
import type { Db, Row, Tx } from './types.js';
import { runAfterCommit } from './after-commit.js';

/** Embedded PostgreSQL (WASM) in one folder; one connection, so transactions run one at a time. */
export async function openPglite(dataDir: string | undefined): Promise<Db> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // bigint columns (ids, seq, counts) come back as numbers, as node-postgres is told to do too.
  const pg = await PGlite.create(dataDir, { parsers: { [types.INT8]: (value: string) => Number(value) } });
  return {
    dialect: 'pglite',
    async query<T extends Row>(sql: string, params: unknown[] = []) {
      const result = await pg.query<T>(sql, params);
      return result.rows;
    },
    async transaction<T>(work: (tx: Tx) => Promise<T>) {
      const callbacks: Array<() => void> = [];
      const value = await pg.transaction(async (inner) =>
        work({
          async query<R extends Row>(sql: string, params: unknown[] = []) {
            return (await inner.query<R>(sql, params)).rows;
          },
          afterCommit: (callback) => callbacks.push(callback),
        }),
      );
      runAfterCommit(callbacks);
      return value;
    },
    async close() {
      await pg.close();
    },
  };
}
