import type { Queryable } from '../../db/index.js';
import { ServerStrings, forbidden, notFound } from '../../http/errors.js';
import { findUserById } from './repository.js';
import type { UserRow } from './model.js';

/** Roles of spec §6. */
export const Role = { user: 0, manager: 1, admin: 2 } as const;

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
