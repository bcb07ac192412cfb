import fs from 'node:fs';
import v8 from 'node:v8';
import { Mutex, PGlite, types } from '@electric-sql/pglite';
import type { Db, Row, TransactionOptions, Tx } from './types.js';
import { beginStatement } from './begin.js';
import { runAfterCommit } from './after-commit.js';
import { DurableNodeFS } from './pglite-durable-fs.js';
import { StatementRunner } from './pglite-statements.js';

export interface PgliteOptions {
  /**
   * Whether a COMMIT reaches the disk before it returns (default true), so that an acknowledged message survives
   * an OS crash or power loss, not only a killed process. Only benchmarks turn it off, to measure its cost.
   */
  durable?: boolean;
  /** In memory only: start from this data folder (`PGlite.dumpDataDir`) instead of an empty database. */
  loadDataDir?: Blob;
}

/**
 * PostgreSQL's buffer pool inside PGlite. Its default, 128 MB, is set up on every start inside the WebAssembly
 * heap: opening an existing database took 730 ms with it and 340 ms with 32 MB (2026-11-27, one core), time a
 * restart is down and every test server pays. A page that leaves the pool stays in the OS page cache (or, in
 * memory, in PGlite's own file system), one read away, and a checkpoint scans fewer buffers.
 */
export const PGLITE_SHARED_BUFFERS = '32MB';

/**
 * PGlite's start parameters with our buffer pool. The WAL's buffers stay at the 4 MB that 128 MB gave them
 * (PostgreSQL derives them as 1/32 of the pool): the full-page images written after each checkpoint would
 * otherwise fill 1 MB within one batch and force WAL writes in the middle of its transaction.
 */
function startParams(): string[] {
  return [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`, '-c', 'wal_buffers=4MB'];
}

/**
 * Start parameters for a durable database: without `-F` (fsync off), and the WAL flushed with fsync(), because
 * Emscripten's fdatasync (PostgreSQL's default method on Linux) does nothing.
 */
export function durableStartParams(): string[] {
  return [...startParams().filter((param) => param !== '-F'), '-c', 'wal_sync_method=fsync'];
}

/**
 * PGlite's 9 MB of WebAssembly are compiled synchronously, while it opens. Compiled asynchronously (V8's default
 * for `WebAssembly.instantiate`), part of the work was left to V8's background threads and the first query after
 * the open waited for them: the main thread blocked on a futex for 305 ms in one start (strace), shown as "idle"
 * in a CPU profile, longer on a busy machine or one core, which is what a restart runs on. The flag is read at
 * each compile, and set back once PGlite has opened.
 */
async function compilingSynchronously<T>(open: () => Promise<T>): Promise<T> {
  v8.setFlagsFromString('--no-wasm-async-compilation');
  try {
    return await open();
  } finally {
    v8.setFlagsFromString('--wasm-async-compilation');
  }
}

/**
 * Embedded PostgreSQL (WASM) in one folder, or in memory without one; one connection, so transactions run one
 * at a time. On disk it is durable by default (see DurableNodeFS).
 */
export async function openPglite(dataDir: string | undefined, options: PgliteOptions = {}): Promise<Db> {
  return pgliteDb(await createPglite(dataDir, options));
}

/** The PGlite instance openPglite wraps: on disk (durable unless told otherwise), or in memory. */
export async function createPglite(dataDir: string | undefined, options: PgliteOptions = {}): Promise<PGlite> {
  // bigint columns (ids, seq, counts) come back as numbers, as node-postgres is told to do too.
  const parsers = { [types.INT8]: (value: string) => Number(value) };
  if (dataDir && options.durable !== false) {
    fs.mkdirSync(dataDir, { recursive: true });
    return compilingSynchronously(() => PGlite.create({ fs: new DurableNodeFS(dataDir), startParams: durableStartParams(), parsers }));
  }
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  // In memory from a saved data folder (tests: a migrated empty database, instead of initdb and migrations again).
  return compilingSynchronously(() =>
    PGlite.create(dataDir, { parsers, startParams: startParams(), ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}) }),
  );
}

/** Our `Db` over one PGlite instance. */
export function pgliteDb(pg: PGlite): Db {
  const runner = new StatementRunner(pg);
  // The one connection, taken by a whole transaction or by one statement at a time, in the order asked.
  const connection = new Mutex();
  return {
    dialect: 'pglite',
    async query<T extends Row>(sql: string, params: unknown[] = []) {
      return connection.runExclusive(() => runner.query<T>(sql, params));
    },
    async transaction<T>(work: (tx: Tx) => Promise<T>, options: TransactionOptions = {}) {
      const callbacks: Array<() => void> = [];
      const value = await connection.runExclusive(async () => {
        await runner.query(beginStatement(options), []);
        try {
          const result = await work({
            query: <R extends Row>(sql: string, params: unknown[] = []) => runner.query<R>(sql, params),
            afterCommit: (callback) => callbacks.push(callback),
          });
          await runner.query('COMMIT', []);
          return result;
        } catch (error) {
          await runner.query('ROLLBACK', []).catch(() => undefined);
          throw error;
        }
      });
      runAfterCommit(callbacks);
      return value;
    },
    async close() {
      await connection.runExclusive(() => pg.close());
    },
  };
}
