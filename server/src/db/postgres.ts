import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Db, Row, TransactionOptions, Tx } from './types.js';
import { beginStatement } from './begin.js';
import { runAfterCommit } from './after-commit.js';

// bigint columns (ids, seq, counts) come back as numbers; every id we hand out stays below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
// …and so do arrays of them, as on PGlite (its parsers are per type, arrays included).
const BIGINT_ARRAY = 1016 as Parameters<typeof pg.types.setTypeParser>[0]; // int8[] (not among node-postgres's named builtins)
const textArray = pg.types.getTypeParser(BIGINT_ARRAY, 'text') as (value: string) => Array<string | null>;
pg.types.setTypeParser(BIGINT_ARRAY, (value) => textArray(value).map((item) => (item === null ? null : Number(item))));

/** Distinct statements prepared per connection at most; past it (never, with our fixed SQL texts) queries go unnamed. */
const MAX_PREPARED = 1_000;
const statementNames = new Map<string, string>();

/**
 * A query as node-postgres runs it: parameterized statements are prepared once per connection (named by a hash of
 * their text) and then only bound and executed. Our statements are few and fixed, and the hot ones are long (the
 * message writer's CTEs): parsing and planning each one every time was most of PostgreSQL's CPU per batch.
 * Parameterless text (BEGIN, migrations, several statements at once) goes through the simple protocol as before.
 */
function statement(sql: string, params: unknown[]): pg.QueryConfig {
  if (params.length === 0) return { text: sql };
  let name = statementNames.get(sql);
  if (name === undefined && statementNames.size < MAX_PREPARED) {
    name = `s${createHash('sha1').update(sql).digest('base64url').slice(0, 20)}`;
    statementNames.set(sql, name);
  }
  return name === undefined ? { text: sql, values: params } : { name, text: sql, values: params };
}

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
      return (await pool.query<T>(statement(sql, params))).rows;
    },
    async transaction<T>(work: (tx: Tx) => Promise<T>, options: TransactionOptions = {}) {
      const client = await pool.connect();
      const callbacks: Array<() => void> = [];
      try {
        await client.query(beginStatement(options));
        const value = await work({
          async query<R extends Row>(sql: string, params: unknown[] = []) {
            return (await client.query<R>(statement(sql, params))).rows;
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
