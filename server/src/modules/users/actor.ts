import type { Queryable } from '../../db/index.js';
import { ServerStrings, forbidden, notFound } from '../../http/errors.js';
import { findUserById } from './repository.js';
import type { UserRow } from './model.js';

/** Roles of spec §6: 0 user, 1 manager (employee), 2 admin, 3 top admin (ADMIN_PHONES). */
export const Role = { user: 0, manager: 1, admin: 2, topAdmin: 3 } as const;

/**
 * The caller as the database knows them now: permission decisions use this row, never the role in the token
 * (a demotion, a block or a deletion takes effect at once).
 */
export async function loadActor(db: Queryable, userId: number): Promise<UserRow> {
  const user = await findUserById(db, userId);
  if (!user || user.deleted) throw notFound(ServerStrings.noSuchUser, 'no_such_user');
  return user;
}

/** Guests (temporary accounts) may read and write in their chats, not build a network (docs/api.md). */
export function refuseGuests(user: Pick<UserRow, 'temporary'>): void {
  if (user.temporary) throw forbidden('Sign in with your phone number to do this', 'guests_not_allowed');
}

const passwordSetupRequired = () =>
  forbidden('Set your password and extra password before using staff features', 'password_setup_required');

/**
 * The caller of a staff route (docs/api.md, issue 4): an admin (role ≥ 2) as the database has them now, not
 * blocked, whose passwords are set. Guests get `guests_not_allowed`, everyone else below admin `admins_only`.
 */
export async function loadAdmin(db: Queryable, userId: number): Promise<UserRow> {
  const actor = await loadActor(db, userId);
  refuseGuests(actor);
  if (actor.role < Role.admin) throw forbidden('Only admins can do this', 'admins_only');
  if (actor.blocked) throw forbidden(ServerStrings.banned, 'banned');
  if (!actor.password_set) throw passwordSetupRequired();
  return actor;
}

/**
 * For routes where an admin's power is one way in among others (reading a secret group one is not in, deleting
 * in one): false for non-admins (they are refused as anyone else would be), true for an admin ready to use it,
 * and 403 `password_setup_required` for an admin whose passwords are not set yet.
 */
export function usesAdminPower(actor: Pick<UserRow, 'role' | 'password_set' | 'blocked' | 'temporary'>): boolean {
  if (actor.role < Role.admin || actor.temporary || actor.blocked) return false;
  if (!actor.password_set) throw passwordSetupRequired();
  return true;
}

/**
 * The rule of every staff action on a person (block, mute, role, edit, delete): never oneself, and only people
 * strictly below one's own role.
 */
export function requireBelow(
  actor: Pick<UserRow, 'id' | 'role'>,
  target: { id: number; role: number; phone?: string | null },
  adminPhones: readonly string[] = [],
): void {
  if (target.id === actor.id) throw forbidden('You cannot do this to your own account', 'not_allowed');
  // A number of ADMIN_PHONES makes its account a top admin at its next sign-in: it counts as one already (an admin
  // resetting its passwords would otherwise sign in as a top admin).
  const role = target.phone && adminPhones.includes(target.phone) ? Math.max(target.role, Role.topAdmin) : target.role;
  if (role >= actor.role) throw forbidden('You can only manage people below your own role', 'not_allowed');
}
