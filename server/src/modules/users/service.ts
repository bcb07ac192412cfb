import type { Services } from '../../services.js';
import { ServerStrings, conflict, forbidden, notFound } from '../../http/errors.js';
import { toE164 } from '../auth/phone.js';
import { endSessions } from '../auth/sessions.js';
import { requireOwnImage } from '../files/access.js';
import { findUserById, publicProfiles } from './repository.js';
import { withProfileEvents } from './profile-events.js';
import { loadActor, loadAdmin, requireBelow } from './actor.js';
import { type MeView, type PublicUserView, type UserRow, toMe, userColumns } from './model.js';

export interface EditUserInput {
  name?: string | undefined;
  username?: string | null | undefined;
  popup_notifications?: boolean | undefined;
  sound_notifications?: boolean | undefined;
  private_notifications?: boolean | undefined;
  last_seen_privacy?: 'everyone' | 'contacts' | 'nobody' | undefined;
  avatar?: string | null | undefined;
}

/** Managers' names are set by admins (spec §6: role 1 cannot edit the profile). */
const MANAGER_ROLE = 1;
const FIND_LIMIT = 20;

export class UsersService {
  constructor(private readonly services: Services) {}

  async me(userId: number, origin: string): Promise<MeView> {
    const row = await findUserById(this.services.db, userId);
    if (!row || row.deleted) throw notFound(ServerStrings.noSuchUser, 'no_such_user');
    return toMe(row, origin);
  }

  async edit(userId: number, input: EditUserInput, origin: string): Promise<MeView> {
    const db = this.services.db;
    const current = await findUserById(db, userId);
    if (!current || current.deleted) throw notFound(ServerStrings.noSuchUser, 'no_such_user');
    const changesProfile = input.name !== undefined || input.username !== undefined;
    if (changesProfile && current.role === MANAGER_ROLE) {
      throw forbidden('Managers cannot edit their profile; an admin can', 'manager_profile_locked');
    }
    const sets: string[] = [];
    const params: unknown[] = [userId];
    const set = (column: string, value: unknown) => {
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    };
    if (input.name !== undefined) set('name', input.name.trim());
    if (input.username !== undefined) set('username', input.username ? input.username.replace(/^@/, '') : null);
    if (input.popup_notifications !== undefined) set('popup_notifications', input.popup_notifications);
    if (input.sound_notifications !== undefined) set('sound_notifications', input.sound_notifications);
    if (input.private_notifications !== undefined) set('private_notifications', input.private_notifications);
    if (input.last_seen_privacy !== undefined) set('last_seen_privacy', input.last_seen_privacy);
    if (input.avatar !== undefined) {
      // An avatar is an image this person uploaded; anyone signed in may then see it.
      const avatar = input.avatar || null;
      if (avatar !== null) await requireOwnImage(db, userId, avatar);
      set('avatar', avatar);
    }
    if (sets.length === 0) return toMe(current, origin);
    try {
      // Name, username and picture are seen by others: they hear of the change live (user-updated).
      const seenByOthers = changesProfile || input.avatar !== undefined;
      const [row] = await withProfileEvents(db, this.services.events, userId, seenByOthers, (tx) =>
        tx.query<UserRow>(`UPDATE users SET ${sets.join(', ')} WHERE id = $1 RETURNING ${userColumns()}`, params),
      );
      if (input.last_seen_privacy !== undefined && input.last_seen_privacy !== current.last_seen_privacy) this.services.presence.privacyChanged(userId);
      return toMe(row!, origin);
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw conflict('This username is already taken', 'username_taken');
      throw error;
    }
  }

  async profile(viewerId: number, userId: number): Promise<PublicUserView> {
    // What the viewer may see (phone, blocked) follows their role as it is now, not as their token says.
    const viewer = await loadActor(this.services.db, viewerId);
    const [profile] = await publicProfiles(this.services.db, viewerId, viewer.role, [userId]);
    if (!profile) throw notFound(ServerStrings.noSuchUser, 'no_such_user');
    return profile;
  }

  /**
   * People by username prefix, or by their exact phone number. Exact matching for phones keeps the directory
   * from being walked number by number.
   */
  async find(viewerId: number, viewerRole: number, rawQuery: string): Promise<PublicUserView[]> {
    const query = rawQuery.trim();
    if (!query) return [];
    const phone = /^\+?[\d\s()-]+$/.test(query) ? toE164(query.startsWith('+') ? query : `+${query}`) : null;
    const username = query.toLowerCase().replace(/^@/, '').replace(/\s+/g, '');
    const rows = await this.services.db.query<{ id: number }>(
      `SELECT id FROM users
        WHERE id <> $1 AND NOT deleted AND NOT temporary
          AND (phone = $2 OR (length($3) > 0 AND lower(username) LIKE $4 ESCAPE '\\'))
        ORDER BY (phone = $2) DESC, lower(username) LIMIT $5`,
      [viewerId, phone, username, `${username.replace(/[\\%_]/g, '\\$&')}%`, FIND_LIMIT],
    );
    const found = await publicProfiles(this.services.db, viewerId, viewerRole, rows.map((row) => row.id));
    const order = new Map(rows.map((row, index) => [row.id, index]));
    return found.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  }

  /**
   * An admin blocks or unblocks someone below them (spec §6), by the rule of every staff action on a person
   * (`requireBelow`). A blocked person cannot sign in, refresh or send; their logins end at once.
   */
  async setBlocked(adminId: number, userId: number, blocked: boolean): Promise<PublicUserView> {
    const db = this.services.db;
    const admin = await loadAdmin(db, adminId);
    await db.transaction(async (tx) => {
      const [target] = await tx.query<{ id: number; role: number; phone: string | null }>('SELECT id, role, phone FROM users WHERE id = $1 AND NOT deleted FOR UPDATE', [
        userId,
      ]);
      if (!target) throw notFound(ServerStrings.noSuchUser, 'no_such_user');
      requireBelow(admin, target, this.services.config.adminPhones);
      await tx.query('UPDATE users SET blocked = $2 WHERE id = $1', [userId, blocked]);
      if (blocked) await endSessions(tx, this.services.sockets, userId);
    });
    const [profile] = await publicProfiles(db, adminId, admin.role, [userId]);
    return profile!;
  }
}
