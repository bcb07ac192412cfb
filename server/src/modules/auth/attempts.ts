import type { Db } from '../../db/index.js';
import { tooManyRequests } from '../../http/errors.js';

/** Wrong passwords allowed per account and per address within the window (docs/api.md, issue 4). */
export const PASSWORD_LIMITS = { perAccount: 5, perAddress: 20, windowSeconds: 15 * 60 } as const;

/**
 * Limits on password guesses, kept in the database so that several server processes agree. A try is written
 * before the password is checked — under an advisory lock per account and per address, so parallel guesses each
 * take a place and 50 of them cannot get 50 tries — and removed again when the password was right. What stays
 * are the failures of the last 15 minutes. A later success does not wipe them: an attacker's count for an
 * account must not start again whenever its owner signs in.
 */
export class PasswordAttempts {
  constructor(private readonly db: Db) {}

  /**
   * Takes a try for `userId` (null: no such account, counted against the address only) from `ip`, or refuses
   * with 429 `too_many_attempts` and Retry-After when either limit is reached. Resolves with the try's id.
   */
  async reserve(userId: number | null, ip: string): Promise<number> {
    return this.db.transaction(async (tx) => {
      const keys = [`pw-ip:${ip}`, ...(userId === null ? [] : [`pw-user:${userId}`])].sort();
      for (const key of keys) await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [key]);
      const waits: number[] = [];
      const window = PASSWORD_LIMITS.windowSeconds;
      // The wait is until the oldest try that keeps the count at the limit leaves the window.
      const [byAddress] = await tx.query<{ age: number }>(
        `SELECT EXTRACT(EPOCH FROM now() - created_at)::float8 AS age FROM password_attempts
          WHERE ip = $1 AND created_at > now() - make_interval(secs => $2)
          ORDER BY created_at DESC, id DESC OFFSET $3 LIMIT 1`,
        [ip, window, PASSWORD_LIMITS.perAddress - 1],
      );
      if (byAddress) waits.push(window - byAddress.age);
      if (userId !== null) {
        const [byAccount] = await tx.query<{ age: number }>(
          `SELECT EXTRACT(EPOCH FROM now() - created_at)::float8 AS age FROM password_attempts
            WHERE user_id = $1 AND created_at > now() - make_interval(secs => $2)
            ORDER BY created_at DESC, id DESC OFFSET $3 LIMIT 1`,
          [userId, window, PASSWORD_LIMITS.perAccount - 1],
        );
        if (byAccount) waits.push(window - byAccount.age);
      }
      if (waits.length > 0) {
        throw tooManyRequests('Too many wrong passwords; try again later', Math.max(...waits), 'too_many_attempts');
      }
      const [row] = await tx.query<{ id: number }>('INSERT INTO password_attempts (user_id, ip) VALUES ($1, $2) RETURNING id', [userId, ip]);
      return row!.id;
    });
  }

  /** The password was right: the try is not a failure. */
  async release(attemptId: number): Promise<void> {
    await this.db.query('DELETE FROM password_attempts WHERE id = $1', [attemptId]);
  }
}

/** Forgets password tries past their window and sign-in tickets a day after they expired (run hourly). */
export async function pruneStaffAuth(db: Db): Promise<void> {
  await db.query('DELETE FROM password_attempts WHERE created_at < now() - make_interval(secs => $1)', [PASSWORD_LIMITS.windowSeconds]);
  await db.query(`DELETE FROM sign_in_tickets WHERE expires_at < now() - interval '1 day'`);
}
