import type { Db, Tx } from '../../db/index.js';
import type { Config } from '../../config.js';
import type { AccessTokens } from '../../security/access-tokens.js';
import { randomToken, sha256 } from '../../security/secrets.js';
import { ServerStrings, forbidden, unauthorized } from '../../http/errors.js';
import type { SocketSupervisor } from '../realtime/socket-guard.js';
import { CloseCode } from '../realtime/socket-guard.js';

export interface JwtInfo {
  access_token: string;
  refresh_token: string;
}

interface RefreshRow extends Record<string, unknown> {
  id: number;
  family_id: string;
  user_id: number;
  expired: boolean;
  rotated_age: number | null;
  revoked: boolean;
  role: number;
  blocked: boolean;
  deleted: boolean;
}

/**
 * Logins ("families") of refresh tokens. A refresh token is opaque, stored hashed and good for one use: each
 * refresh replaces it. Presenting an already replaced token means it was copied, so the whole login is revoked —
 * except within a few seconds of its rotation, when it is two tabs of one browser refreshing at once.
 */
export class Sessions {
  constructor(
    private readonly db: Db,
    private readonly accessTokens: AccessTokens,
    private readonly config: Pick<Config, 'refreshTokenTtlDays' | 'refreshGraceSeconds'>,
  ) {}

  /** Starts a new login for a user inside the sign-in transaction. */
  async start(tx: Tx, userId: number, role: number): Promise<JwtInfo> {
    return this.issue(tx, userId, role, randomToken(16));
  }

  async refresh(presented: string): Promise<JwtInfo> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.query<RefreshRow>(
        `SELECT t.id, t.family_id, t.user_id, t.expires_at < now() AS expired,
                EXTRACT(EPOCH FROM now() - t.rotated_at)::float8 AS rotated_age,
                t.revoked_at IS NOT NULL AS revoked, u.role, u.blocked, u.deleted
           FROM refresh_tokens t JOIN users u ON u.id = t.user_id
          WHERE t.token_hash = $1
          FOR UPDATE OF t`,
        [sha256(presented)],
      );
      if (!row) throw unauthorized('Invalid refresh token', 'invalid_refresh_token');
      // The person's state first: a blocked person's refresh says so (the spec's `you are banned`), even though
      // the block also revoked the token.
      if (row.deleted) throw unauthorized(ServerStrings.noSuchUser, 'no_such_user');
      if (row.blocked) throw forbidden(ServerStrings.banned, 'banned');
      if (row.revoked || row.expired) throw unauthorized('Invalid refresh token', 'invalid_refresh_token');
      if (row.rotated_age !== null) {
        if (row.rotated_age > this.config.refreshGraceSeconds) {
          await tx.query('UPDATE refresh_tokens SET revoked_at = now() WHERE family_id = $1 AND revoked_at IS NULL', [
            row.family_id,
          ]);
          return { revoked: true } as const;
        }
      } else {
        await tx.query('UPDATE refresh_tokens SET rotated_at = now() WHERE id = $1', [row.id]);
      }
      return this.issue(tx, row.user_id, row.role, row.family_id);
    }).then((result) => {
      // The revocation must commit, so the refusal is thrown only after the transaction.
      if ('revoked' in result) throw unauthorized('This login was ended because its refresh token was reused', 'refresh_token_reused');
      return result;
    });
  }

  /** Ends one login (sign-out) given any of its refresh tokens; the browser's push subscription goes with it. */
  async revoke(presented: string): Promise<void> {
    await this.db.query(
      `WITH login AS (SELECT family_id FROM refresh_tokens WHERE token_hash = $1),
            revoked AS (UPDATE refresh_tokens SET revoked_at = now()
                         WHERE revoked_at IS NULL AND family_id = (SELECT family_id FROM login))
       DELETE FROM push_subscriptions WHERE login_id = (SELECT family_id FROM login)`,
      [sha256(presented)],
    );
  }

  private async issue(tx: Tx, userId: number, role: number, familyId: string): Promise<JwtInfo> {
    const [current] = await tx.query<{ session_generation: number }>('SELECT session_generation FROM users WHERE id = $1', [userId]);
    const refreshToken = randomToken();
    await tx.query(
      `INSERT INTO refresh_tokens (family_id, user_id, token_hash, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(days => $4))`,
      [familyId, userId, sha256(refreshToken), this.config.refreshTokenTtlDays],
    );
    return { access_token: await this.accessTokens.issue(userId, role, current?.session_generation ?? 0, familyId), refresh_token: refreshToken };
  }
}

/**
 * Ends every session of a person at once (blocked, deleted, role changed, password reset by an admin), in the
 * transaction of that change: their access tokens stop working on their next request (the generation they carry
 * is no longer the person's), their refresh tokens are revoked, and after COMMIT their open sockets are closed
 * (4003: the client tries a refresh, which tells it why).
 */
export async function endSessions(tx: Tx, sockets: SocketSupervisor, userId: number): Promise<void> {
  await tx.query('UPDATE users SET session_generation = session_generation + 1 WHERE id = $1', [userId]);
  await tx.query('UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL', [userId]);
  await tx.query('DELETE FROM push_subscriptions WHERE user_id = $1', [userId]);
  tx.afterCommit(() => sockets.closeUser(userId, CloseCode.sessionEnded, 'session ended'));
}
