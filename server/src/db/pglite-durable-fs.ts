import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { ParallelFsync } from './pglite-parallel-fsync.js';

type EmscriptenOptions = Parameters<NodeFS['init']>[1];
type PostgresModule = Parameters<NonNullable<EmscriptenOptions['preRun']>[number]>[0];

interface EmscriptenNode {
  parent: EmscriptenNode;
}
interface EmscriptenStream {
  nfd?: number;
  node: EmscriptenNode;
  /** The path it was opened by, inside Emscripten's file system. */
  path?: string;
}
type Ops = Record<string, (...args: never[]) => unknown>;
interface NodeFsModule {
  NODEFS: { stream_ops: Ops; node_ops: Ops };
}

/**
 * A relation's data file (a table's or an index's, any fork or segment: `base/5/16644_fsm.1`, `global/1262`),
 * whose fsync a checkpoint makes before its own record; not `global/pg_control`, the WAL or the SLRUs.
 */
const DATA_FILE = /\/(?:base\/\d+|global)\/\d+(?:_[a-z]+)?(?:\.\d+)?$/;

/** The part of ParallelFsync the file system uses (a test may watch it). */
export type DataFileSyncs = Pick<ParallelFsync, 'defer' | 'owes' | 'barrier' | 'close'>;

/** PostgreSQL's DBState values of a cluster that was shut down cleanly (pg_control.h). */
const SHUT_DOWN_STATES = new Set([1 /* DB_SHUTDOWNED */, 2 /* DB_SHUTDOWNED_IN_RECOVERY */]);

/**
 * Whether the database in `folder` was left without a clean shutdown (a crash), so that PostgreSQL will run crash
 * recovery on it: the state in its control file (after the 8-byte system identifier and two 4-byte versions).
 */
export function leftByCrash(folder: string): boolean {
  let control: Buffer;
  try {
    control = fs.readFileSync(join(folder, 'global', 'pg_control'));
  } catch {
    return false; // a new database: nothing from an earlier process to flush
  }
  return control.length >= 20 && !SHUT_DOWN_STATES.has(control.readUInt32LE(16));
}

/**
 * Flushes every file system holding `dir` (syncfs(2), through coreutils' `sync -f`, as Node has no binding).
 * Returns whether it did.
 */
export function syncFileSystem(dir: string): boolean {
  const result = spawnSync('sync', ['-f', dir], { stdio: 'ignore', timeout: 60_000 });
  return result.status === 0;
}

/**
 * PGlite's folder-backed filesystem with a working fsync. Emscripten's NODEFS leaves `fsync` out (it returns
 * without touching the disk) and PGlite starts PostgreSQL with `-F` (fsync off), so out of the box a commit is
 * only in the OS page cache. Here every fsync PostgreSQL issues (WAL at commit, data files at checkpoint,
 * directories on create) becomes a real `fsync(2)` of the underlying file.
 *
 * It is synchronous, inside PostgreSQL's WebAssembly call, so it stops the server for as long as the disk takes
 * (0.6–1 ms typically, up to 35 ms, on our machines). Making the WAL's fsync owed and then made on libuv's threads
 * (awaited before the call's answer is used) was tried: in two A/B runs of the open-loop benchmark it lowered
 * neither p50 nor p99 measurably, since the one connection has to wait for it either way, so the simpler
 * synchronous one stays.
 *
 * Start after a crash: PostgreSQL first fsyncs every file of the data folder (SyncDataDirectory), in case the
 * process that died left writes in the page cache only; 2 000 fsyncs, 0.6 s of a 3.6 s restart. Instead the
 * file system is flushed once (syncfs) before PostgreSQL starts, which covers everything any earlier process
 * wrote; from then on only an fsync of a file (or folder) this process has changed reaches the disk, and the
 * others return at once: there is nothing of theirs left unflushed. Only after a crash (a clean start has no
 * such storm, and syncfs also flushes other programs' writes to the same disk); without `sync -f`, every fsync
 * is real.
 *
 * The data files' fsyncs of a checkpoint run side by side on a worker (see ParallelFsync); every other fsync,
 * and the close of a file that still owes one, first waits for them: they are on disk before the checkpoint
 * record's fsync and before the control file, which says where recovery starts, is written. This relies on
 * wal_level `replica` (PGlite's default): under `minimal` a new relation's data is synced at commit instead of
 * logged, and would need a wait before the commit record's write as well.
 */
export class DurableNodeFS extends NodeFS {
  /**
   * Files and folders (Emscripten's nodes, one per path for as long as it exists: a rename moves the node) this
   * process has written, truncated, created, or changed an entry of.
   */
  private readonly changed = new WeakSet<EmscriptenNode>();
  private flushedAtStart = false;
  private dataFileSyncs: DataFileSyncs | null = null;

  constructor(
    private readonly folder: string,
    private readonly makeDataFileSyncs: () => DataFileSyncs = () => new ParallelFsync(),
  ) {
    super(folder);
  }

  override async init(pg: PGlite, opts: EmscriptenOptions) {
    this.flushedAtStart = leftByCrash(this.folder) && syncFileSystem(this.folder);
    this.dataFileSyncs = this.makeDataFileSyncs();
    const result = await super.init(pg, opts);
    const patch = (module: PostgresModule) => this.patch((module as unknown as NodeFsModule).NODEFS);
    result.emscriptenOpts.preRun = [...(result.emscriptenOpts.preRun ?? []), patch];
    return result;
  }

  override async closeFs(): Promise<void> {
    try {
      await this.dataFileSyncs?.close();
    } finally {
      await super.closeFs();
    }
  }

  private patch(nodefs: NodeFsModule['NODEFS']): void {
    const syncs = this.dataFileSyncs!;
    const streams = nodefs.stream_ops;
    const sync = (stream: EmscriptenStream & { nfd: number }) => {
      if (stream.path && DATA_FILE.test(stream.path)) {
        syncs.defer(stream.nfd);
      } else {
        syncs.barrier();
        fs.fsyncSync(stream.nfd);
      }
    };
    // A descriptor closed with its fsync still on the worker could be reused for another file before it is made.
    const close = streams.close!;
    streams.close = ((stream: EmscriptenStream) => {
      try {
        if (stream.nfd !== undefined && syncs.owes(stream.nfd)) syncs.barrier();
      } finally {
        close(stream as never); // closed even when the wait throws, or the descriptor would leak
      }
    }) as Ops[string];
    if (!this.flushedAtStart) {
      streams.fsync = ((stream: EmscriptenStream) => {
        if (stream.nfd !== undefined) sync(stream as EmscriptenStream & { nfd: number });
        return 0;
      }) as Ops[string];
      return;
    }
    const changed = this.changed;
    /** Marks the nodes an operation changes, before it runs (if it throws halfway, their fsyncs are still made). */
    const marking = (ops: Ops, name: string, nodes: (...args: never[]) => EmscriptenNode[]) => {
      const original = ops[name]!;
      ops[name] = ((...args: never[]) => {
        for (const node of nodes(...args)) changed.add(node);
        const result = original(...args);
        // A new file or folder is this process's own from the start.
        if (name === 'mknod') changed.add(result as EmscriptenNode);
        return result;
      }) as Ops[string];
    };
    const nodes = nodefs.node_ops;
    marking(streams, 'write', (stream: EmscriptenStream) => [stream.node]);
    // Truncation: ftruncate on a stream, truncate (and open with O_TRUNC, which Emscripten turns into one) on a node.
    marking(streams, 'setattr', (stream: EmscriptenStream, attr: { size?: number }) => (attr.size === undefined ? [] : [stream.node]));
    marking(nodes, 'setattr', (node: EmscriptenNode, attr: { size?: number }) => (attr.size === undefined ? [] : [node]));
    marking(nodes, 'mknod', (parent: EmscriptenNode) => [parent]);
    marking(nodes, 'rename', (node: EmscriptenNode, newParent: EmscriptenNode) => [node.parent, newParent, node]);
    for (const name of ['unlink', 'rmdir', 'symlink']) marking(nodes, name, (parent: EmscriptenNode) => [parent]);
    streams.fsync = ((stream: EmscriptenStream) => {
      if (stream.nfd !== undefined && changed.has(stream.node)) sync(stream as EmscriptenStream & { nfd: number });
      return 0;
    }) as Ops[string];
  }
}
