import type { Db, Tx } from '../../db/index.js';
import type { EventLog } from '../../events/log.js';
import { toPublic, userColumns, type PublicUserView, type UserRow } from './model.js';

/** Who hears of a person's profile change, and what each of them may see of it. */
export interface ProfileAudience {
  id: number;
  role: number;
  /** The recipient typed the person's phone in (a contact added or invited by number): they may see the phone. */
  phone_known: boolean;
}

/**
 * Everyone whose screens show the person: themselves (their other tabs), everyone who shares a chat with them,
 * and everyone who has them as a contact. A change that locks more people (or chats first) reads this, takes every
 * lock in one pass with these ids among them, changes the profile, then calls `announceProfile`.
 */
export async function profileAudience(tx: Tx, userId: number): Promise<ProfileAudience[]> {
  return tx.query<ProfileAudience & Record<string, unknown>>(
    `SELECT r.id, r.role, EXISTS (SELECT 1 FROM contacts c WHERE c.owner_id = r.id AND c.user_id = $1 AND c.phone_known) AS phone_known
       FROM users r
      WHERE r.id = $1
         OR (NOT r.deleted AND (
              r.id IN (SELECT m2.user_id FROM chat_members m1 JOIN chat_members m2 ON m2.chat_id = m1.chat_id WHERE m1.user_id = $1)
              OR r.id IN (SELECT owner_id FROM contacts WHERE user_id = $1)))
      ORDER BY r.id`,
    [userId],
  );
}

/**
 * Runs a change of a person's public profile (name, username, picture) and, in the same transaction, appends
 * `user-updated {user}` to the log of everyone who sees them — `user` being their public profile as that
 * recipient may see it (the same rule as `GET /user/{id}`: the phone only for themselves, people who typed it in
 * for their contact, and admins). Without `announce` the change runs alone.
 *
 * The recipients' rows are locked (in id order, the person's own included) before `change` runs, so the
 * person's row is never held while waiting for a lower id — the order every other writer follows.
 */
export async function withProfileEvents<T>(
  db: Db,
  events: EventLog,
  userId: number,
  announce: boolean,
  change: (tx: Tx) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const audience = announce ? await profileAudience(tx, userId) : [];
    if (audience.length > 0) await events.lockRecipients(tx, audience.map((recipient) => recipient.id));
    const result = await change(tx);
    await announceProfile(tx, events, userId, audience);
    return result;
  });
}

/** `user-updated` to each of `audience` (locked already), with the person's profile as it now is in `tx`. */
export async function announceProfile(tx: Tx, events: EventLog, userId: number, audience: readonly ProfileAudience[]): Promise<void> {
  if (audience.length === 0) return;
  const [row] = await tx.query<UserRow>(`SELECT ${userColumns()} FROM users WHERE id = $1`, [userId]);
  if (!row) return;
  // One event per distinct view, so recipients who see the same profile share one append.
  const byView = new Map<string, { user: PublicUserView; ids: number[] }>();
  for (const recipient of audience) {
    const user = toPublic(row, {
      showPhone: recipient.phone_known || recipient.id === userId || recipient.role >= 2,
      forAdmin: recipient.role >= 2,
    });
    const key = JSON.stringify(user);
    const group = byView.get(key) ?? { user, ids: [] };
    group.ids.push(recipient.id);
    byView.set(key, group);
  }
  for (const { user, ids } of byView.values()) await events.append(tx, ids, 'user-updated', { user });
}
