import type { Services } from '../../services.js';
import type { Tx } from '../../db/index.js';
import { ServerStrings, badRequest, forbidden, unauthorized } from '../../http/errors.js';
import { randomToken, sha256 } from '../../security/secrets.js';
import { hashCost, hashPassword, verifyPassword } from '../../security/passwords.js';
import { findUserById, findUserByPhone } from '../users/repository.js';
import type { UserRow } from '../users/model.js';
import { Role } from '../users/actor.js';
import { PasswordAttempts } from './attempts.js';
import type { JwtInfo, Sessions } from './sessions.js';
import { requirePhone } from './phone.js';

/** How long the ticket between the two passwords lives (docs/api.md: 5 minutes). */
export const TICKET_TTL_SECONDS = 300;

/** Staff who sign in with passwords: role ≥ 1, not a guest, not deleted, both passwords set. */
export function signsInWithPasswords(user: UserRow | undefined): boolean {
  return !!user && !user.deleted && !user.temporary && user.role >= Role.manager && user.password_set;
}

const notStaff = () => badRequest('No staff account with passwords has this phone number', 'not_staff');
const wrongPassword = () => unauthorized('Wrong password', 'wrong_password');
const invalidTicket = () => unauthorized('The sign-in has expired; start again with your password', 'invalid_ticket');

interface HashesRow extends Record<string, unknown> {
  password_hash: string | null;
  extra_password_hash: string | null;
}

/**
 * Manager sign-in in two steps (docs/api.md, issue 4): the password gives a ticket (random, stored as SHA-256,
 * bound to the phone, 5 minutes, single use), and the ticket with the extra password gives a normal login. Wrong
 * passwords at either step count toward the same limits per account and per address.
 */
export class StaffSignIn {
  readonly attempts: PasswordAttempts;

  constructor(
    private readonly services: Services,
    private readonly sessions: Sessions,
    private readonly applyAdminPhone: (tx: Tx, user: UserRow) => Promise<void>,
  ) {
    this.attempts = new PasswordAttempts(services.db);
  }

  async first(rawPhone: string, password: string, ip: string): Promise<{ ticket: string; expires_in: number }> {
    const { db } = this.services;
    const phone = requirePhone(rawPhone);
    const user = await findUserByPhone(db, phone);
    const staff = user && signsInWithPasswords(user) ? user : undefined;
    if (staff?.blocked) throw forbidden(ServerStrings.banned, 'banned');
    // Counted against the address whether or not the account exists, so phones cannot be tried for free.
    const attempt = await this.attempts.reserve(staff?.id ?? null, ip);
    const hashes = staff ? await this.hashes(staff.id) : undefined;
    // Without an account the work of the server's cost is done, so the answer's timing does not tell either
    // (stored hashes are brought to that cost as their owners sign in, below).
    const right = await verifyPassword(password, hashes?.password_hash ?? null, this.services.config.passwordHashCost);
    if (!staff) throw notStaff();
    if (!right) throw wrongPassword();
    await this.attempts.release(attempt);
    await this.rehashIfStale(staff.id, 'password_hash', hashes!.password_hash!, password);
    const ticket = randomToken(32);
    await db.query(
      `INSERT INTO sign_in_tickets (ticket_hash, phone, user_id, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
      [sha256(ticket), phone, staff.id, TICKET_TTL_SECONDS],
    );
    return { ticket, expires_in: TICKET_TTL_SECONDS };
  }

  async second(rawPhone: string, extraPassword: string, ticket: string, ip: string): Promise<{ jwt_info: JwtInfo }> {
    const { db } = this.services;
    const phone = requirePhone(rawPhone);
    const ticketHash = sha256(ticket);
    const [live] = await db.query<{ user_id: number }>(
      `SELECT user_id FROM sign_in_tickets
        WHERE ticket_hash = $1 AND phone = $2 AND consumed_at IS NULL AND expires_at > now()`,
      [ticketHash, phone],
    );
    if (!live) throw invalidTicket();
    const user = await findUserById(db, live.user_id);
    // The account changed since the first step (deleted, demoted, its phone or passwords reset): start again.
    if (!user || !signsInWithPasswords(user) || user.phone !== phone) throw invalidTicket();
    if (user.blocked) throw forbidden(ServerStrings.banned, 'banned');
    const attempt = await this.attempts.reserve(user.id, ip);
    const hashes = await this.hashes(user.id);
    if (!(await verifyPassword(extraPassword, hashes?.extra_password_hash ?? null, this.services.config.passwordHashCost))) throw wrongPassword();
    await this.attempts.release(attempt);
    await this.rehashIfStale(user.id, 'extra_password_hash', hashes!.extra_password_hash!, extraPassword);
    return db.transaction(async (tx) => {
      // Single use even when two right answers race: only one UPDATE finds it unconsumed.
      const consumed = await tx.query(
        `UPDATE sign_in_tickets SET consumed_at = now()
          WHERE ticket_hash = $1 AND phone = $2 AND consumed_at IS NULL AND expires_at > now() RETURNING id`,
        [ticketHash, phone],
      );
      if (consumed.length === 0) throw invalidTicket();
      const [current] = await tx.query<{ role: number; blocked: boolean; deleted: boolean }>(
        'SELECT role, blocked, deleted FROM users WHERE id = $1 FOR UPDATE',
        [user.id],
      );
      if (!current || current.deleted || current.role < Role.manager) throw invalidTicket();
      if (current.blocked) throw forbidden(ServerStrings.banned, 'banned');
      user.role = current.role;
      await this.applyAdminPhone(tx, user);
      return { jwt_info: await this.sessions.start(tx, user.id, user.role) };
    });
  }

  /**
   * A right password whose hash was made at another work factor than the server's (PASSWORD_HASH_COST was changed
   * since) is hashed again at the server's: what a sign-in costs then no longer tells known phones from unknown
   * ones, and a raised cost reaches every account. Only if the hash is still the one checked (not reset meanwhile).
   */
  private async rehashIfStale(userId: number, column: 'password_hash' | 'extra_password_hash', checked: string, password: string): Promise<void> {
    const cost = this.services.config.passwordHashCost;
    if (hashCost(checked) === cost) return;
    await this.services.db.query(`UPDATE users SET ${column} = $3 WHERE id = $1 AND ${column} = $2`, [userId, checked, await hashPassword(password, cost)]);
  }

  private async hashes(userId: number): Promise<HashesRow | undefined> {
    const [row] = await this.services.db.query<HashesRow>('SELECT password_hash, extra_password_hash FROM users WHERE id = $1', [userId]);
    return row;
  }
}
