import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/index.js';
import type { Config } from '../../config.js';
import { badRequest, tooManyRequests } from '../../http/errors.js';

/**
 * One-time sign-in codes: 6 digits from a CSPRNG, stored only as an HMAC, valid for a few minutes, single use,
 * a bounded number of guesses, and spaced and capped per phone and per address against SMS pumping.
 */
export class OtpCodes {
  constructor(
    private readonly db: Db,
    private readonly key: Buffer,
    private readonly limits: Config['otp'],
  ) {}

  /** Creates a new code for `phone`, or refuses with 429 and Retry-After when it is too soon or too many. */
  async create(phone: string, ip: string): Promise<string> {
    return this.db.transaction(async (tx) => {
      // Serialise requests for one phone so two parallel requests cannot both pass the spacing check.
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`otp:${phone}`]);
      const [phoneStats] = await tx.query<{ last_age: number | null; today: number }>(
        `SELECT EXTRACT(EPOCH FROM now() - max(created_at))::float8 AS last_age,
                count(*) FILTER (WHERE created_at > now() - interval '1 day') AS today
           FROM otp_codes WHERE phone = $1 AND created_at > now() - interval '1 day'`,
        [phone],
      );
      const lastAge = phoneStats?.last_age;
      if (lastAge !== null && lastAge !== undefined && lastAge < this.limits.resendSeconds) {
        throw tooManyRequests('A code was sent moments ago; wait before asking again', this.limits.resendSeconds - lastAge, 'code_resend_too_soon');
      }
      if ((phoneStats?.today ?? 0) >= this.limits.perPhonePerDay) {
        throw tooManyRequests('Too many codes for this phone today; try again tomorrow', 3600, 'code_daily_limit');
      }
      const [ipStats] = await tx.query<{ recent: number }>(
        `SELECT count(*) AS recent FROM otp_codes WHERE ip = $1 AND created_at > now() - interval '1 hour'`,
        [ip],
      );
      if ((ipStats?.recent ?? 0) >= this.limits.perIpPerHour) {
        throw tooManyRequests('Too many codes requested from this address; try again later', 600, 'code_address_limit');
      }
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      await tx.query(
        `INSERT INTO otp_codes (phone, code_hash, ip, expires_at)
         VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
        [phone, this.hash(phone, code), ip, this.limits.ttlSeconds],
      );
      return code;
    });
  }

  /** Drops a code that could not be delivered, so the person may ask again at once. */
  async discard(phone: string, code: string): Promise<void> {
    await this.db.query('DELETE FROM otp_codes WHERE phone = $1 AND code_hash = $2', [phone, this.hash(phone, code)]);
  }

  /**
   * Checks a guess against the phone's newest live code. The attempt is counted first, atomically and in its own
   * statement, so parallel guesses each use up a try and a wrong guess is never rolled back.
   * Resolves with the code's id when right; the caller consumes it in the sign-in transaction.
   */
  async verify(phone: string, code: string): Promise<number> {
    const [live] = await this.db.query<{ id: number; attempts: number }>(
      `SELECT id, attempts FROM otp_codes
        WHERE phone = $1 AND consumed_at IS NULL AND expires_at > now()
        ORDER BY created_at DESC LIMIT 1`,
      [phone],
    );
    if (!live) throw badRequest('The code has expired or was not requested; ask for a new one', 'code_expired');
    const [counted] = await this.db.query<{ code_hash: string }>(
      `UPDATE otp_codes SET attempts = attempts + 1
        WHERE id = $1 AND attempts < $2 AND consumed_at IS NULL
        RETURNING code_hash`,
      [live.id, this.limits.maxAttempts],
    );
    if (!counted) throw tooManyRequests('Too many wrong codes; ask for a new one', this.limits.resendSeconds, 'code_attempts_exceeded');
    const expected = Buffer.from(counted.code_hash, 'hex');
    const given = Buffer.from(this.hash(phone, code), 'hex');
    if (!timingSafeEqual(expected, given)) throw badRequest('Wrong code', 'code_invalid');
    return live.id;
  }

  private hash(phone: string, code: string): string {
    return createHmac('sha256', this.key).update(`${phone}:${code}`).digest('hex');
  }
}
