import type { Services } from '../../services.js';
import type { Tx } from '../../db/index.js';
import { ServerStrings, badRequest, conflict, forbidden, notFound, unauthorized } from '../../http/errors.js';
import { randomCode } from '../../security/secrets.js';
import { PASSWORD_MAX, PASSWORD_MIN, generatePasswordPair, hashPassword, passwordLength, verifyPassword } from '../../security/passwords.js';
import { requirePhone } from '../auth/phone.js';
import { characterCount } from '../../http/text.js';
import { PasswordAttempts } from '../auth/attempts.js';
import { endSessions } from '../auth/sessions.js';
import { INVITE_CODE_LENGTH } from '../auth/service.js';
import { convertInvitesOnJoin, lockForPhoneChange, phoneChanged } from '../contacts/service.js';
import { GroupsService } from '../chats/groups.js';
import { Role, loadActor, loadAdmin, requireBelow } from '../users/actor.js';
import { findUserById } from '../users/repository.js';
import { type MeView, type UserRow, toMe, userColumns } from '../users/model.js';
import { announceProfile, profileAudience } from '../users/profile-events.js';
import { type Credentials, EMPLOYEE_SELECT, type EmployeeRow, type EmployeeView, toEmployee } from './model.js';
import { limits } from '@messenger/protocol';

const NAME_MAX = limits.nameMax;
const LIST_LIMIT = 200;

export interface ListOptions {
  managers?: boolean | undefined;
  query?: string | undefined;
  deleted?: boolean | undefined;
}

export interface EditManagerInput {
  user_id: number;
  phone?: string | undefined;
  name?: string | undefined;
  username?: string | null | undefined;
  notes?: string | undefined;
  password?: string | undefined;
  extra_password?: string | undefined;
}

interface TargetRow extends Record<string, unknown> {
  id: number;
  role: number;
  phone: string | null;
  temporary: boolean;
  deleted: boolean;
  password_hash: string | null;
  extra_password_hash: string | null;
}

/** Lower case without '@', '+' and whitespace (spec §5), in SQL. */
const normalised = (expression: string) => `regexp_replace(lower(coalesce(${expression}, '')), '[@+[:space:]]', '', 'g')`;

function employeeName(raw: string): string {
  const name = raw.trim();
  if (!name || characterCount(name) > NAME_MAX) throw badRequest(`A name has 1 to ${NAME_MAX} characters`, 'invalid_name');
  return name;
}

/** The rules of docs/api.md for a password being set: 8–128 characters. */
function checkPasswordRules(password: string): void {
  const length = passwordLength(password);
  if (length < PASSWORD_MIN || length > PASSWORD_MAX) {
    throw badRequest(`A password has ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`, 'weak_password');
  }
}

const samePasswords = () => badRequest('The extra password must differ from the password', 'same_passwords');
const phoneTaken = () => conflict('This phone number belongs to another account', 'phone_taken');
const notFoundUser = () => notFound(ServerStrings.noSuchUser, 'no_such_user');

function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const pgError = error as { code?: string; constraint?: string; message?: string };
  if (pgError.code !== '23505') return false;
  if (!constraint) return true;
  return pgError.constraint === constraint || (pgError.message ?? '').includes(constraint);
}

/**
 * Employees (docs/api.md, issue 4): admins list people, make managers, edit them, change roles, mute and delete.
 * Every action on a person follows one rule (`requireBelow`): never oneself, only people strictly below one's
 * own role, and never granting a role above one's own. The caller's role is read from the database each time.
 */
export class EmployeesService {
  private readonly attempts: PasswordAttempts;

  constructor(private readonly services: Services) {
    this.attempts = new PasswordAttempts(services.db);
  }

  /** The work factor of the password hashes made here (PASSWORD_HASH_COST). */
  private get cost(): number {
    return this.services.config.passwordHashCost;
  }

  /**
   * A phone of ADMIN_PHONES makes whoever signs in with it a top admin: only a top admin may give one to an account
   * whose passwords they hand out (an admin would otherwise sign in with them and be above their own role).
   */
  private requireGrantablePhone(admin: { role: number }, phone: string): void {
    if (admin.role < Role.topAdmin && this.services.config.adminPhones.includes(phone)) {
      throw forbidden('This number belongs to a top admin', 'not_allowed');
    }
  }

  /** At most LIST_LIMIT people; `truncated` when there are more (a search finds the others). */
  async list(adminId: number, options: ListOptions): Promise<{ users: EmployeeView[]; truncated: boolean }> {
    const db = this.services.db;
    await loadAdmin(db, adminId);
    const needle = (options.query ?? '').toLowerCase().replace(/[@+\s]/g, '');
    const pattern = `%${needle.replace(/[\\%_]/g, '\\$&')}%`;
    const rows = await db.query<EmployeeRow>(
      `${EMPLOYEE_SELECT}
        WHERE NOT u.temporary
          AND (NOT $1::boolean OR u.role >= ${Role.manager})
          AND ($2::boolean OR NOT u.deleted)
          AND ($3 = '' OR ${normalised('u.name')} LIKE $4 ESCAPE '\\' OR ${normalised('u.username')} LIKE $4 ESCAPE '\\'
               OR ${normalised('u.phone')} LIKE $4 ESCAPE '\\')
        ORDER BY (u.role >= ${Role.manager}) DESC, lower(coalesce(nullif(u.name, ''), u.username, u.phone, '')), u.id
        LIMIT $5`,
      [options.managers === true, options.deleted === true, needle, pattern, LIST_LIMIT + 1],
    );
    return { users: rows.slice(0, LIST_LIMIT).map(toEmployee), truncated: rows.length > LIST_LIMIT };
  }

  /**
   * A new manager with generated passwords, or an existing account (below staff) promoted to manager. The
   * passwords are returned once, for the admin to hand over; only their hashes are kept.
   */
  async createManager(adminId: number, input: { phone: string; name: string; notes?: string | undefined }): Promise<{ user: EmployeeView; credentials: Credentials }> {
    const { db, events } = this.services;
    const admin = await loadAdmin(db, adminId);
    const phone = requirePhone(input.phone);
    this.requireGrantablePhone(admin, phone);
    const name = employeeName(input.name);
    const notes = input.notes?.trim() ?? '';
    const credentials = generatePasswordPair();
    const [passwordHash, extraHash] = await Promise.all([hashPassword(credentials.password, this.cost), hashPassword(credentials.extra_password, this.cost)]);
    let userId: number;
    try {
      userId = await db.transaction(async (tx) => {
        // An existing account is promoted, under the name given here: everyone who sees them learns it (their rows
        // and the person's locked first, in id order).
        const [found] = await tx.query<{ id: number }>('SELECT id FROM users WHERE phone = $1', [phone]);
        const audience = found ? await profileAudience(tx, found.id) : [];
        if (found) await events.lockRecipients(tx, [found.id, ...audience.map((recipient) => recipient.id)]);
        const [existing] = found
          ? await tx.query<TargetRow>('SELECT id, role, phone, temporary, deleted FROM users WHERE id = $1 AND phone = $2', [found.id, phone])
          : [];
        if (found && !existing) throw conflict('This phone number changed hands meanwhile; try again', 'phone_taken');
        if (existing) {
          if (existing.deleted) throw conflict('This phone number belongs to a deleted account', 'phone_taken');
          if (existing.role >= Role.manager) throw conflict('This person is staff already', 'already_staff');
          requireBelow(admin, existing, this.services.config.adminPhones);
          await tx.query(
            `UPDATE users SET role = $2, name = $3, notes = $4, password_hash = $5, extra_password_hash = $6 WHERE id = $1`,
            [existing.id, Role.manager, name, notes, passwordHash, extraHash],
          );
          // Their sessions signed in by SMS end, as at any role change: a manager signs in with the passwords.
          await endSessions(tx, this.services.sockets, existing.id);
          await announceProfile(tx, events, existing.id, audience);
          return existing.id;
        }
        const [created] = await tx.query<UserRow>(
          `INSERT INTO users (phone, name, notes, role, invite_code, password_hash, extra_password_hash)
           VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${userColumns()}`,
          [phone, name, notes, Role.manager, randomCode(INVITE_CODE_LENGTH), passwordHash, extraHash],
        );
        // As at any sign-up: whoever had invited this phone gets them as a contact.
        await convertInvitesOnJoin(tx, events, created!);
        return created!.id;
      });
    } catch (error) {
      // Two admins adding one phone at once: the second finds it taken.
      if (isUniqueViolation(error)) throw conflict('This person is staff already', 'already_staff');
      throw error;
    }
    return { user: await this.employee(userId), credentials: { phone, ...credentials } };
  }

  /**
   * Edits someone below the caller: phone, name, username, notes, and (staff only) a new password and/or extra
   * password. New passwords end the person's logins and any sign-in half done.
   */
  async editManager(adminId: number, input: EditManagerInput): Promise<{ user: EmployeeView; credentials?: Credentials }> {
    const db = this.services.db;
    const admin = await loadAdmin(db, adminId);
    const phone = input.phone === undefined ? undefined : requirePhone(input.phone);
    const name = input.name === undefined ? undefined : employeeName(input.name);
    const username = input.username === undefined ? undefined : input.username ? input.username.replace(/^@/, '') : null;
    const notes = input.notes?.trim();
    const settingPasswords = input.password !== undefined || input.extra_password !== undefined;

    let hashes: { password?: string; extra?: string } = {};
    if (settingPasswords) {
      const target = await this.target(db, input.user_id);
      requireBelow(admin, target, this.services.config.adminPhones);
      if (target.role < Role.manager) throw badRequest('Only staff sign in with passwords', 'not_staff');
      if (input.password !== undefined) checkPasswordRules(input.password);
      if (input.extra_password !== undefined) checkPasswordRules(input.extra_password);
      if (input.password !== undefined && input.extra_password !== undefined) {
        if (input.password === input.extra_password) throw samePasswords();
      } else if (input.password !== undefined && (await verifyPassword(input.password, target.extra_password_hash, this.cost))) {
        throw samePasswords();
      } else if (input.extra_password !== undefined && (await verifyPassword(input.extra_password, target.password_hash, this.cost))) {
        throw samePasswords();
      }
      hashes = {
        ...(input.password !== undefined ? { password: await hashPassword(input.password, this.cost) } : {}),
        ...(input.extra_password !== undefined ? { extra: await hashPassword(input.extra_password, this.cost) } : {}),
      };
    }

    try {
      await db.transaction(async (tx) => {
        const { events } = this.services;
        // A new name or username is told to everyone who sees the person (`user-updated`, as at PUT /user/edit); a new
        // phone to contacts and inviters: all their rows and the person's in id order, before anything else.
        const audience = name !== undefined || username !== undefined ? await profileAudience(tx, input.user_id) : [];
        const audienceIds = audience.map((recipient) => recipient.id);
        if (phone !== undefined) await lockForPhoneChange(tx, events, input.user_id, phone, audienceIds);
        else await events.lockRecipients(tx, audienceIds);
        const target = await this.target(tx, input.user_id, true);
        requireBelow(admin, target, this.services.config.adminPhones);
        if (phone !== undefined && phone !== target.phone) this.requireGrantablePhone(admin, phone);
        if (target.temporary) throw forbidden('Guests have no profile to edit', 'not_allowed');
        if (settingPasswords && target.role < Role.manager) throw badRequest('Only staff sign in with passwords', 'not_staff');
        const sets: string[] = [];
        const params: unknown[] = [target.id];
        const set = (column: string, value: unknown) => sets.push(`${column} = $${params.push(value)}`);
        if (phone !== undefined && phone !== target.phone) set('phone', phone);
        if (name !== undefined) set('name', name);
        if (username !== undefined) set('username', username);
        if (notes !== undefined) set('notes', notes);
        if (hashes.password !== undefined) set('password_hash', hashes.password);
        if (hashes.extra !== undefined) set('extra_password_hash', hashes.extra);
        if (sets.length > 0) await tx.query(`UPDATE users SET ${sets.join(', ')} WHERE id = $1`, params);
        if (phone !== undefined && phone !== target.phone) {
          const [changed] = await tx.query<UserRow>(`SELECT ${userColumns()} FROM users WHERE id = $1`, [target.id]);
          await phoneChanged(tx, this.services.events, changed!);
        }
        if (settingPasswords || (phone !== undefined && phone !== target.phone)) await endSignInsInProgress(tx, target.id);
        if (settingPasswords) await endSessions(tx, this.services.sockets, target.id);
        await announceProfile(tx, events, target.id, audience);
      });
    } catch (error) {
      if (isUniqueViolation(error, 'users_username_key')) throw conflict('This username is already taken', 'username_taken');
      if (isUniqueViolation(error)) throw phoneTaken();
      throw error;
    }
    const user = await this.employee(input.user_id);
    if (!settingPasswords) return { user };
    return { user, credentials: { phone: user.phone, password: input.password ?? null, extra_password: input.extra_password ?? null } };
  }

  /**
   * Changes someone's role: never one's own, only people below one's role, never to a role above one's own.
   * Back to 0 (user), their passwords go: a user signs in by SMS again.
   */
  async setRole(adminId: number, userId: number, roleId: number): Promise<EmployeeView> {
    const db = this.services.db;
    const admin = await loadAdmin(db, adminId);
    if (roleId > admin.role) throw forbidden('You cannot grant a role above your own', 'not_allowed');
    await db.transaction(async (tx) => {
      // Everyone who sees the person learns a new role (`user-updated`: it is part of the public profile): their
      // rows and the person's locked first, in id order.
      const audience = await profileAudience(tx, userId);
      await this.services.events.lockRecipients(tx, [userId, ...audience.map((recipient) => recipient.id)]);
      const target = await this.target(tx, userId, true);
      requireBelow(admin, target, this.services.config.adminPhones);
      if (target.temporary) throw forbidden('Guests cannot be given a role; they sign in with a phone first', 'not_allowed');
      if (roleId === target.role) return;
      if (roleId === Role.user) {
        await tx.query('UPDATE users SET role = $2, password_hash = NULL, extra_password_hash = NULL WHERE id = $1', [userId, roleId]);
        await endSignInsInProgress(tx, userId);
      } else {
        await tx.query('UPDATE users SET role = $2 WHERE id = $1', [userId, roleId]);
      }
      // What they may do changed: they sign in again (a manager with passwords now needs them).
      await endSessions(tx, this.services.sockets, userId);
      await announceProfile(tx, this.services.events, userId, audience);
    });
    return this.employee(userId);
  }

  /** Mutes or unmutes someone below the caller: a muted person's sends are refused (`you're muted by admin`). */
  async setMuted(adminId: number, userId: number, isMuted: boolean): Promise<EmployeeView> {
    const db = this.services.db;
    const admin = await loadAdmin(db, adminId);
    await db.transaction(async (tx) => {
      const target = await this.target(tx, userId, true);
      requireBelow(admin, target, this.services.config.adminPhones);
      await tx.query('UPDATE users SET is_muted = $2 WHERE id = $1', [userId, isMuted]);
    });
    return this.employee(userId);
  }

  /**
   * Soft-deletes someone below the caller: the account is marked deleted (their messages stay, shown as a deleted
   * person's), their passwords go and their logins end; they cannot sign in again with that phone. The groups they
   * owned pass to another member.
   */
  async remove(adminId: number, userId: number, origin: string): Promise<void> {
    const db = this.services.db;
    const admin = await loadAdmin(db, adminId);
    const groups = new GroupsService(this.services);
    await db.transaction(async (tx) => {
      // Everyone who sees the person learns they are deleted (`user-updated`); their rows are locked with the groups'.
      const audience = await profileAudience(tx, userId);
      const owned = await groups.lockGroupsOwnedBy(tx, userId, audience.map((recipient) => recipient.id));
      const target = await this.target(tx, userId, true);
      requireBelow(admin, target, this.services.config.adminPhones);
      // The username goes free: a deleted account shows as deleted, never by it.
      await tx.query('UPDATE users SET deleted = true, username = NULL, password_hash = NULL, extra_password_hash = NULL WHERE id = $1', [userId]);
      await endSignInsInProgress(tx, userId);
      await endSessions(tx, this.services.sockets, userId);
      await groups.passOwnership(tx, owned, userId, origin);
      await announceProfile(tx, this.services.events, userId, audience.filter((recipient) => recipient.id !== userId));
    });
  }

  /**
   * `POST /user/password`: staff set (first time) or change their own two passwords. Once set, the current
   * password is required, and a wrong one counts toward the sign-in limits like any wrong password.
   */
  async setOwnPasswords(
    userId: number,
    input: { password: string; extra_password: string; current_password?: string | undefined },
    ip: string,
    origin: string,
  ): Promise<MeView> {
    const db = this.services.db;
    const actor = await loadActor(db, userId);
    if (actor.temporary || actor.role < Role.manager) throw forbidden('Only staff have passwords', 'staff_only');
    if (actor.blocked) throw forbidden(ServerStrings.banned, 'banned');
    checkPasswordRules(input.password);
    checkPasswordRules(input.extra_password);
    if (input.password === input.extra_password) throw samePasswords();
    if (actor.password_set) {
      if (input.current_password === undefined) throw unauthorized('Give your current password', 'wrong_password');
      const attempt = await this.attempts.reserve(actor.id, ip);
      const [stored] = await db.query<{ password_hash: string | null }>('SELECT password_hash FROM users WHERE id = $1', [actor.id]);
      if (!(await verifyPassword(input.current_password, stored?.password_hash ?? null, this.cost))) {
        throw unauthorized('Wrong password', 'wrong_password');
      }
      await this.attempts.release(attempt);
    }
    const [passwordHash, extraHash] = await Promise.all([hashPassword(input.password, this.cost), hashPassword(input.extra_password, this.cost)]);
    await db.transaction(async (tx) => {
      await tx.query('UPDATE users SET password_hash = $2, extra_password_hash = $3 WHERE id = $1', [actor.id, passwordHash, extraHash]);
      await endSignInsInProgress(tx, actor.id);
    });
    return toMe((await findUserById(db, actor.id))!, origin);
  }

  async employee(userId: number): Promise<EmployeeView> {
    const [row] = await this.services.db.query<EmployeeRow>(`${EMPLOYEE_SELECT} WHERE u.id = $1`, [userId]);
    if (!row) throw notFoundUser();
    return toEmployee(row);
  }

  /** The person acted on (locked in a transaction): 404 `no such user` when unknown or deleted. */
  private async target(db: Tx | Services['db'], userId: number, lock = false): Promise<TargetRow> {
    const [row] = await db.query<TargetRow>(
      // NO KEY UPDATE: the key never changes, and it leaves the key-share locks of rows referring to it alone.
      `SELECT id, role, phone, temporary, deleted, password_hash, extra_password_hash FROM users WHERE id = $1${lock ? ' FOR NO KEY UPDATE' : ''}`,
      [userId],
    );
    if (!row || row.deleted) throw notFoundUser();
    return row;
  }
}

/** A sign-in half done (password given, extra password not yet) must start again. */
async function endSignInsInProgress(tx: Tx, userId: number): Promise<void> {
  await tx.query('UPDATE sign_in_tickets SET consumed_at = now() WHERE user_id = $1 AND consumed_at IS NULL', [userId]);
}
