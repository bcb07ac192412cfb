import type { Db } from './types.js';

/** WAL written since the last checkpoint past which the embedded database checkpoints (as max_wal_size would). */
export const CHECKPOINT_AFTER_WAL_BYTES = 8 * 2 ** 20;
/** How often the embedded database's WAL is looked at. */
export const CHECKPOINT_CHECK_MS = 2_000;

/**
 * Checkpoints the embedded database once enough WAL has been written since its last checkpoint; says whether it did.
 *
 * PGlite runs PostgreSQL as a single-user backend: there is no checkpointer process (so no checkpoint_timeout),
 * and PostgreSQL arms its WAL-volume trigger (max_wal_size) only under a postmaster. Left alone it checkpointed
 * only at a clean shutdown: after a crash it replayed every write since it started (about 0.5 s per 31 MB of WAL
 * here), pg_wal grew without bound, and with no segment ever freed for reuse each new 16 MB WAL file had to be
 * created. Measured with the checkpoints (open-loop benchmark, 2026-11-26, before → after): the database's part
 * of a restart under load 1.5 → 1.2 s, and p99 at 2 000 / 3 000 / 4 000 msgs/s 74 / 82 / 105 → 48 / 56 / 85 ms.
 * A checkpoint holds the one connection for as long as it writes: 35–45 ms after 31 MB, hence the small step.
 * Its data files' fsyncs run side by side on a worker (ParallelFsync): 80 → 45 ms per checkpoint at the median,
 * one core, on a slow day (2026-11-27).
 */
export async function checkpointIfDue(db: Db, afterBytes = CHECKPOINT_AFTER_WAL_BYTES): Promise<boolean> {
  const [wal] = await db.query<{ since: number }>(
    'SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), redo_lsn)::bigint AS since FROM pg_control_checkpoint()',
  );
  if (!wal || Number(wal.since) < afterBytes) return false;
  await db.query('CHECKPOINT');
  return true;
}
