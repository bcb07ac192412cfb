import type { Queryable } from '../../db/index.js';
import { userColumns, type UserRow, type PublicUserView, toPublic } from './model.js';

export async function findUserById(db: Queryable, id: number): Promise<UserRow | undefined> {
  const rows = await db.query<UserRow>(`SELECT ${userColumns()} FROM users WHERE id = $1`, [id]);
  return rows[0];
}

export async function findUserByPhone(db: Queryable, phone: string): Promise<UserRow | undefined> {
  const rows = await db.query<UserRow>(`SELECT ${userColumns()} FROM users WHERE phone = $1`, [phone]);
  return rows[0];
}

export async function findUserByUsername(db: Queryable, username: string): Promise<UserRow | undefined> {
  const rows = await db.query<UserRow>(`SELECT ${userColumns()} FROM users WHERE lower(username) = lower($1)`, [
    username,
  ]);
  return rows[0];
}

/**
 * Public profiles of several people as `viewerId` may see them: the phone shows to the person themself, to
 * admins, and to those who typed that number in themselves (a contact added or invited by number; not one made by
 * username or by following an invite link).
 */
export async function publicProfiles(db: Queryable, viewerId: number, viewerRole: number, ids: number[]): Promise<PublicUserView[]> {
  if (ids.length === 0) return [];
  const rows = await db.query<UserRow & { knows_phone: boolean }>(
    `SELECT ${userColumns('u')},
            EXISTS (SELECT 1 FROM contacts c WHERE c.owner_id = $1 AND c.user_id = u.id AND c.phone_known) AS knows_phone
       FROM users u WHERE u.id = ANY($2::bigint[])`,
    [viewerId, ids],
  );
  return rows.map((row) =>
    toPublic(row, { showPhone: row.knows_phone || row.id === viewerId || viewerRole >= 2, forAdmin: viewerRole >= 2 }),
  );
}

/** The profile of someone acting in this transaction, as anyone sees it (the events of what they do name them). */
export async function actorProfile(db: Queryable, userId: number): Promise<PublicUserView> {
  const [profile] = await publicProfiles(db, 0, 0, [userId]);
  if (!profile) throw new Error(`user ${userId} acts but has no row`);
  return profile;
}
