import fs from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

type EmscriptenOptions = Parameters<NodeFS['init']>[1];
type PostgresModule = Parameters<NonNullable<EmscriptenOptions['preRun']>[number]>[0];

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
 */
export class DurableNodeFS extends NodeFS {
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
