import pg from 'pg';
import type { Db, Row, Tx } from './types.js';
import { runAfterCommit } from './after-commit.js';

// bigint columns (ids, seq, counts) come back as numbers; every id we hand out stays below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export async function openPostgres(connectionString: string): Promise<Db> {
  const pool = new pg.Pool({ connectionString, max: 10 });
  // An idle connection that the server drops (restart, failover, admin) must not crash the process:
  // the pool replaces it on next use, and a query in flight fails with its own error.
  pool.on('error', (error) => console.warn(`PostgreSQL connection lost: ${error.message}`));
  // Fail at start-up, not at the first request, when the database is unreachable.
  await pool.query('SELECT 1');
  return {
    dialect: 'postgres',
    async query<T extends Row>(sql: string, params: unknown[] = []) {
      return (await pool.query<T>(sql, params)).rows;
    },
    async transaction<T>(work: (tx: Tx) => Promise<T>, options: { readOnly?: boolean } = {}) {
      const client = await pool.connect();
      const callbacks: Array<() => void> = [];
      try {
        // Reads that must match a seq (list + seq) need one snapshot; writes serialise on row locks.
        await client.query(options.readOnly ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' : 'BEGIN');
        const value = await work({
          async query<R extends Row>(sql: string, params: unknown[] = []) {
            return (await client.query<R>(sql, params)).rows;
          },
          afterCommit: (callback) => callbacks.push(callback),
        });
        await client.query('COMMIT');
        runAfterCommit(callbacks);
        return value;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
}
