import { BatchedReads } from '../../db/batched-reads.js';
import type { Queryable } from '../../db/index.js';

/** What every authenticated request reads about its caller (see `authenticate`). */
export type AccountState = {
  role: number;
  temporary: boolean;
  blocked: boolean;
  deleted: boolean;
  session_generation: number;
};

/**
 * People's account states as the database has them now, read for every authenticated request and socket. The
 * requests of one moment are read together (`id = ANY(…)`, BatchedReads); nothing is cached, so a block or an
 * ended session applies to the very next request.
 */
export class AccountStates {
  private readonly reads: BatchedReads<number, AccountState | undefined>;

  constructor(db: Queryable) {
    this.reads = new BatchedReads(async (ids) => {
      const rows = await db.query<AccountState & { id: number }>(
        'SELECT id, role, temporary, blocked, deleted, session_generation FROM users WHERE id = ANY($1::bigint[])',
        [[...new Set(ids)]],
      );
      const found = new Map(rows.map(({ id, ...state }) => [Number(id), state]));
      return ids.map((id) => found.get(id));
    });
  }

  /** The account of `userId`, or undefined when there is none. */
  read(userId: number): Promise<AccountState | undefined> {
    return this.reads.read(userId);
  }
}
