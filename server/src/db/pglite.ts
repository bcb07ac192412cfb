import fs from 'node:fs';
import { PGlite, types } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import type { Db, Row, Tx } from './types.js';

type EmscriptenOptions = Parameters<NodeFS['init']>[1];
type PostgresModule = Parameters<NonNullable<EmscriptenOptions['preRun']>[number]>[0];
import { runAfterCommit } from './after-commit.js';

export interface PgliteOptions {
  /**
   * Whether a COMMIT reaches the disk before it returns (default true), so that an acknowledged message survives
   * an OS crash or power loss, not only a killed process. Only benchmarks turn it off, to measure its cost.
   */
  durable?: boolean;
}

/**
 * PGlite's folder-backed filesystem with a working fsync. Emscripten's NODEFS leaves `fsync` out (it returns
 * without touching the disk) and PGlite starts PostgreSQL with `-F` (fsync off), so out of the box a commit is
 * only in the OS page cache. Here every fsync PostgreSQL issues (WAL at commit, data files at checkpoint,
 * directories on create) becomes a real `fsync(2)` of the underlying file.
 */
class DurableNodeFS extends NodeFS {
  override async init(pg: PGlite, opts: EmscriptenOptions) {
    const result = await super.init(pg, opts);
    const syncFile = (module: PostgresModule) => {
      const nodefs = (module as unknown as { NODEFS: { stream_ops: Record<string, unknown> } }).NODEFS;
      nodefs.stream_ops.fsync = (stream: { nfd?: number }) => {
        if (stream.nfd !== undefined) fs.fsyncSync(stream.nfd);
        return 0;
      };
    };
    result.emscriptenOpts.preRun = [...(result.emscriptenOpts.preRun ?? []), syncFile];
    return result;
  }
}

/**
 * Start parameters for a durable database: PGlite's defaults without `-F` (fsync off), and the WAL flushed with
 * fsync(), because Emscripten's fdatasync (PostgreSQL's default method on Linux) does nothing.
 */
function durableStartParams(): string[] {
  return [...PGlite.defaultStartParams.filter((param) => param !== '-F'), '-c', 'wal_sync_method=fsync'];
}

/**
 * Embedded PostgreSQL (WASM) in one folder, or in memory without one; one connection, so transactions run one
 * at a time. On disk it is durable by default (see DurableNodeFS).
 */
export async function openPglite(dataDir: string | undefined, options: PgliteOptions = {}): Promise<Db> {
  // bigint columns (ids, seq, counts) come back as numbers, as node-postgres is told to do too.
  const parsers = { [types.INT8]: (value: string) => Number(value) };
  let pg: PGlite;
  if (dataDir && options.durable !== false) {
    fs.mkdirSync(dataDir, { recursive: true });
    pg = await PGlite.create({ fs: new DurableNodeFS(dataDir), startParams: durableStartParams(), parsers });
  } else {
    if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
    pg = await PGlite.create(dataDir, { parsers });
  }
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
