import fs from 'node:fs';
import { constants } from 'node:os';
import { Worker } from 'node:worker_threads';

/** How long a barrier waits for the worker without any fsync returning before it makes the owed ones itself. */
const STALLED_AFTER_MS = 10_000;

/**
 * The fsyncs of a checkpoint, made side by side on a worker thread instead of one after the other.
 *
 * PostgreSQL's checkpoint writes every dirty page, then fsyncs each data file it wrote, one at a time, and only
 * then writes its WAL record and the control file. Inside PGlite that is one synchronous call: measured in the
 * open-loop benchmark (2026-11-27), 30 fsyncs took 15–25 ms and the first checkpoint after a start 198 fsyncs and
 * 98 ms, during which no message is written or delivered. The same 200 fsyncs handed at once to libuv's thread
 * pool (4 threads, shared with the rest of the process) took 8–25 ms here instead of 65–80 ms one by one.
 *
 * So a data file's fsync is handed to a worker (`defer`) and PostgreSQL goes on at once; `barrier` then blocks
 * until every handed fsync has returned, and throws if one failed. The caller puts a barrier before anything
 * whose durability must follow the data files' (the WAL, the control file, a folder) and before closing a file
 * with an fsync still owed, so the order PostgreSQL relies on is kept: no checkpoint record or control file
 * reaches the disk before the pages it vouches for. Completion and errors come back through shared memory,
 * because the main thread is inside PostgreSQL's synchronous call while it waits and runs no callback.
 */
export class ParallelFsync {
  /** [fsyncs handed and not yet returned, the errno of the first that failed (0: none)]. */
  private readonly state = new Int32Array(new SharedArrayBuffer(8));
  private readonly worker: Worker;
  /** Descriptors with an fsync handed since the last barrier. */
  private readonly owed = new Set<number>();
  /** Set once the worker failed or stopped answering: from then on every fsync is made here, synchronously. */
  private broken = false;
  /**
   * The first fsync that failed. It stays: Linux reports a failed writeback once, so a later fsync of the same
   * file can succeed with the data lost. As PostgreSQL PANICs then, every later barrier, fsync and close throws
   * it, and nothing more is committed (nor acknowledged) until the process is restarted and recovers from its
   * last complete checkpoint.
   */
  private failure: Error | null = null;

  constructor() {
    // No execArgv: the worker needs none of the parent's flags (a test runner's loader would slow its start).
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: this.state.buffer, execArgv: [] });
    this.worker.unref();
    this.worker.on('error', () => (this.broken = true));
    this.worker.on('exit', () => (this.broken = true));
  }

  /** Starts an fsync of `fd` on the worker and returns at once. */
  defer(fd: number): void {
    if (this.failure) throw this.failure;
    if (this.broken) {
      fs.fsyncSync(fd);
      return;
    }
    this.owed.add(fd);
    Atomics.add(this.state, 0, 1);
    this.worker.postMessage(fd);
  }

  /** Whether an fsync of `fd` was handed since the last barrier. */
  owes(fd: number): boolean {
    return this.owed.has(fd);
  }

  /** fsyncs handed to the worker and not yet returned. */
  pending(): number {
    return Atomics.load(this.state, 0);
  }

  /** Waits until every handed fsync has returned; throws if one failed, then or before (see `failure`). */
  barrier(): void {
    if (this.failure) throw this.failure;
    if (this.owed.size === 0) return;
    let stalledAt = Date.now() + STALLED_AFTER_MS;
    for (let left = Atomics.load(this.state, 0); left > 0 && !this.broken; ) {
      Atomics.wait(this.state, 0, left, 100);
      const now = Atomics.load(this.state, 0);
      if (now < left) stalledAt = Date.now() + STALLED_AFTER_MS;
      else if (Date.now() > stalledAt) this.broken = true;
      left = now;
    }
    const owed = [...this.owed];
    this.owed.clear();
    const errno = Atomics.load(this.state, 1);
    if (errno !== 0) {
      const code = Object.entries(constants.errno).find(([, value]) => value === errno)?.[0] ?? 'EIO';
      this.failure = Object.assign(new Error(`fsync of a data file failed: ${code} (errno ${errno})`), { code, errno: -errno });
      throw this.failure;
    }
    // A worker that failed to start, died or hangs: the fsyncs it still owes are made here.
    if (this.broken) {
      try {
        for (const fd of owed) fs.fsyncSync(fd);
      } catch (error) {
        this.failure = error as Error;
        throw error;
      }
    }
  }

  /** Waits for what is owed, then stops the worker (also when the wait throws). */
  async close(): Promise<void> {
    try {
      this.barrier();
    } finally {
      this.broken = true;
      await this.worker.terminate();
    }
  }
}

// CommonJS, run with `eval` so that the server's single-file bundle needs no file beside it.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const state = new Int32Array(workerData);
const done = (error) => {
  if (error) Atomics.compareExchange(state, 1, 0, Math.abs(error.errno ?? 5) || 5);
  Atomics.sub(state, 0, 1);
  Atomics.notify(state, 0);
};
parentPort.on('message', (fd) => {
  try {
    fs.fsync(fd, done);
  } catch (error) {
    done(error);
  }
});
`;
