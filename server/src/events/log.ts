import type { FlowEventMap, FlowEventType } from '@messenger/protocol';
import { BatchedReads } from '../db/batched-reads.js';
import type { Db, Queryable, Tx } from '../db/index.js';
import type { EventBus } from './bus.js';
import { checkEventPayload } from './contract.js';
import type { FlowEvent } from './types.js';

/** A resume's row: its request (1-based), the user's head, and one event, or none (seq null). */
interface ResumeRow extends Record<string, unknown> {
  request: number;
  head: number | null;
  seq: number | null;
  event_type: string | null;
  payload: Record<string, unknown> | null;
}

export type ResumeResult =
  | { kind: 'events'; events: FlowEvent[]; head: number }
  | { kind: 'resync'; head: number };

/**
 * The per-user event log: every live event is a row `(user_id, seq)` written in the transaction of the change
 * it reports. `seq` comes from the user's row, so it increases by exactly one per event and a gap is detectable.
 */
export class EventLog {
  constructor(
    private readonly db: Db,
    private readonly bus: EventBus,
    /** Test runs: every payload is checked against the contract before it is logged (events/contract.ts). */
    private readonly checkPayloads = false,
  ) {}

  /**
   * Appends one event to each user's log inside `tx`; the events reach live sockets only after COMMIT.
   * Users are locked in id order so that two changes touching the same people cannot deadlock. `info` may be a
   * function of the recipient where each one's event says something of their own (their unread count). The payload
   * is the wire contract's for its type (packages/protocol, live.ts).
   */
  async append<Type extends FlowEventType>(
    tx: Tx,
    userIds: Iterable<number>,
    eventType: Type,
    info: FlowEventMap[Type] | ((userId: number) => FlowEventMap[Type]),
  ): Promise<void> {
    const ids = [...new Set(userIds)].sort((a, b) => a - b);
    for (const userId of ids) {
      const rows = await tx.query<{ last_seq: number }>(
        'UPDATE users SET last_seq = last_seq + 1 WHERE id = $1 RETURNING last_seq',
        [userId],
      );
      const seq = rows[0]?.last_seq;
      if (seq === undefined) continue; // the user is gone; nobody to tell
      const theirs: Record<string, unknown> = typeof info === 'function' ? info(userId) : info;
      if (this.checkPayloads) checkEventPayload(eventType, theirs);
      await tx.query('INSERT INTO user_events (user_id, seq, event_type, payload) VALUES ($1, $2, $3, $4)', [
        userId,
        seq,
        eventType,
        JSON.stringify(theirs),
      ]);
      const event: FlowEvent = { seq, event_type: eventType, additional_info: theirs };
      tx.afterCommit(() => this.bus.publish(userId, event));
    }
  }

  /**
   * Takes, in id order, the row locks `append` would take one by one. A transaction that appends to several
   * different sets of people (one event per recipient, several chats) calls this first with all of them, so that
   * its locks are taken in the same global order as everybody else's and two such transactions cannot deadlock.
   */
  async lockRecipients(tx: Tx, userIds: Iterable<number>): Promise<void> {
    const ids = [...new Set(userIds)].sort((a, b) => a - b);
    if (ids.length === 0) return;
    await tx.query('SELECT id FROM users WHERE id = ANY($1::bigint[]) ORDER BY id FOR NO KEY UPDATE', [ids]);
  }

  async head(userId: number, from: Queryable = this.db): Promise<number> {
    const rows = await from.query<{ last_seq: number }>('SELECT last_seq FROM users WHERE id = $1', [userId]);
    return rows[0]?.last_seq ?? 0;
  }

  /**
   * Events after `since`, oldest first: at most `limit` of them, and possibly fewer though more are kept (the caller
   * reads on until it reaches `head`). When `since` is ahead of the log (unknown, e.g. a reset database) or behind
   * what is still kept, the caller must refetch its state: `resync`.
   *
   * The reads of one moment go to the database as one statement (BatchedReads): a restarted server's crowd of
   * `/user/flow` sockets resumes at once, and on the embedded database 200 resumes were 400 statements one after
   * another. The head and the events come from one snapshot. One statement returns at most ROWS_PER_READ events
   * (shared among its requests) so that a crowd far behind cannot hold the embedded database, which runs on the
   * event loop, for seconds; a socket further behind reads again.
   */
  readAfter(userId: number, since: number, limit: number): Promise<ResumeResult> {
    // Checked here, not in SQL: a bad request fails alone rather than the whole statement it would share.
    if (!Number.isSafeInteger(since) || since < 0) return Promise.reject(new RangeError(`not a seq: ${since}`));
    if (!Number.isSafeInteger(limit) || limit < 1) return Promise.reject(new RangeError(`not a page size: ${limit}`));
    return this.resumes.read({ userId, since, limit });
  }

  private readonly resumes = new BatchedReads<{ userId: number; since: number; limit: number }, ResumeResult>(async (requests) => {
    const share = Math.floor(ROWS_PER_READ / requests.length);
    const rows = await this.db.query<ResumeRow>(
      `SELECT r.request::int AS request, u.last_seq AS head, e.seq, e.event_type, e.payload
         FROM unnest($1::bigint[], $2::bigint[], $3::int[]) WITH ORDINALITY AS r(user_id, since, size, request)
         LEFT JOIN users u ON u.id = r.user_id
         LEFT JOIN LATERAL (
           SELECT seq, event_type, payload FROM user_events
            WHERE user_id = r.user_id AND seq > r.since AND r.since < u.last_seq
            ORDER BY seq LIMIT r.size
         ) e ON true
        ORDER BY r.request, e.seq`,
      [
        requests.map((request) => request.userId),
        requests.map((request) => request.since),
        requests.map((request) => Math.min(request.limit, share)),
      ],
    );
    const heads: number[] = [];
    const found: FlowEvent[][] = requests.map(() => []);
    for (const row of rows) {
      const index = row.request - 1;
      heads[index] = Number(row.head ?? 0);
      if (row.seq !== null) found[index]!.push({ seq: row.seq, event_type: row.event_type!, additional_info: row.payload! });
    }
    return requests.map(({ since }, index): ResumeResult => {
      const head = heads[index] ?? 0;
      const events = found[index]!;
      if (since > head) return { kind: 'resync', head };
      if (since === head) return { kind: 'events', events: [], head };
      // Every event from since + 1 on, without a hole: a prune going through the table (in page order, which is
      // not seq order once freed space is reused) may have taken some of them and not yet the rest.
      if (events.length === 0 || events.some((event, at) => event.seq !== since + 1 + at)) return { kind: 'resync', head };
      return { kind: 'events', events, head };
    });
  }, ROWS_PER_READ / LEAST_SHARE);

  /**
   * Forgets events older than the retention window; a client that was away longer resyncs.
   *
   * On PostgreSQL one DELETE finds them through the BRIN index on `created_at`, which autovacuum keeps summarized.
   * The embedded database has no autovacuum (only the vacuum below, after a pass): one DELETE would read the whole
   * table, holding the one connection throughout (40 000 events in 3 000 pages: 45–75 ms warm, 180 ms cold after a
   * crash; 2026-11-28). There the table is gone through in
   * windows of `pagesPerStep` pages instead (a TID range scan), one statement each, so other work runs between
   * them (a step: median 19 ms cold, a few ms warm), then the table is vacuumed so that new events fill the space.
   * A row that moves to a page already passed while a pass runs (nothing here updates events) waits for the next
   * pass.
   */
  async prune(retentionDays: number, pagesPerStep = PRUNE_PAGES_PER_STEP): Promise<number> {
    if (this.db.dialect === 'postgres') return this.pruneWhere('', [retentionDays]);
    const [size] = await this.db.query<{ pages: number }>(
      `SELECT (pg_relation_size('user_events') / current_setting('block_size')::int)::bigint AS pages`,
    );
    const pages = Number(size?.pages ?? 0);
    let deleted = 0;
    for (let first = 0; first < pages; first += pagesPerStep) {
      deleted += await this.pruneWhere(`AND ctid >= format('(%s,0)', $2::bigint)::tid AND ctid < format('(%s,0)', $3::bigint)::tid`, [
        retentionDays,
        first,
        first + pagesPerStep,
      ]);
    }
    // Without a vacuum the space of the deleted rows is never used again (no free-space map is kept), and the
    // table grew by every event ever written, retention or not. It holds the connection: 6–60 ms for 700 pages.
    if (deleted > 0) await this.db.query('VACUUM user_events');
    return deleted;
  }

  private async pruneWhere(window: string, params: unknown[]): Promise<number> {
    const rows = await this.db.query<{ count: number }>(
      `WITH gone AS (
         DELETE FROM user_events WHERE created_at < now() - make_interval(days => $1) ${window} RETURNING 1
       ) SELECT count(*) AS count FROM gone`,
      params,
    );
    return Number(rows[0]?.count ?? 0);
  }
}

/**
 * Events one resume statement returns at most, shared among the sockets it answers, each of which gets at least
 * LEAST_SHARE (so a statement answers at most 40 sockets): a socket far behind reads again, in pages still large
 * enough that each row is not paid for with an index lookup of its own.
 */
export const ROWS_PER_READ = 2000;
const LEAST_SHARE = 50;

/** Pages of the events table one step of a prune on the embedded database looks at (512 kB). */
export const PRUNE_PAGES_PER_STEP = 64;
