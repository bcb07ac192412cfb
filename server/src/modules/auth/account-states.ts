import type { Queryable } from '../../db/index.js';

/** What every authenticated request reads about its caller (see `authenticate`). */
export type AccountState = {
  role: number;
  temporary: boolean;
  blocked: boolean;
  deleted: boolean;
  session_generation: number;
};

/** Ids read by one query at most; more wait for the next. */
const MOST_PER_READ = 500;

interface Waiting {
  resolve(state: AccountState | undefined): void;
  reject(error: unknown): void;
}

/**
 * People's account states as the database has them now, read for every authenticated request and socket. One read
 * at a time: the requests that arrive while one is on its way are answered together by the next, one query
 * (`id = ANY(…)`). An idle server reads at once for a lone request; a busy one reads less often for more. Each
 * answer is still read after its request arrived and nothing is cached, so a block or an ended session applies to
 * the very next request as before. The price: a read that is slow to come back holds up every request behind it,
 * where it held up only its own.
 *
 * A restarted server has every client reconnecting at once, each with two sockets: on the embedded database,
 * which runs one statement at a time, 400 primary-key reads took 120–570 ms (warm to cold, 2026-11-28) and the
 * same ids read 20 at a time 11–110 ms, time the crowd's messages waited behind them.
 */
export class AccountStates {
  private waiting = new Map<number, Waiting[]>();
  private reading = false;

  constructor(private readonly db: Queryable) {}

  /** The account of `userId`, or undefined when there is none. */
  read(userId: number): Promise<AccountState | undefined> {
    return new Promise((resolve, reject) => {
      const others = this.waiting.get(userId);
      if (others) others.push({ resolve, reject });
      else this.waiting.set(userId, [{ resolve, reject }]);
      if (!this.reading) {
        this.reading = true;
        // The rest of this turn's requests join the first.
        setImmediate(() => void this.readWaiting());
      }
    });
  }

  private async readWaiting(): Promise<void> {
    while (this.waiting.size > 0) {
      const batch = this.waiting;
      this.waiting = new Map();
      const ids = [...batch.keys()];
      for (let start = 0; start < ids.length; start += MOST_PER_READ) {
        const part = ids.slice(start, start + MOST_PER_READ);
        try {
          const rows = await this.db.query<AccountState & { id: number }>(
            'SELECT id, role, temporary, blocked, deleted, session_generation FROM users WHERE id = ANY($1::bigint[])',
            [part],
          );
          const found = new Map(rows.map(({ id, ...state }) => [Number(id), state]));
          for (const id of part) for (const waiter of batch.get(id)!) waiter.resolve(found.get(id));
        } catch (error) {
          for (const id of part) for (const waiter of batch.get(id)!) waiter.reject(error);
        }
      }
    }
    this.reading = false;
  }
}
