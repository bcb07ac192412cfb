import type { Services } from '../../services.js';
import type { Tx } from '../../db/index.js';
import type { EventLog } from '../../events/log.js';
import { ServerStrings, badRequest, conflict, notFound, tooManyRequests } from '../../http/errors.js';
import { toE164 } from '../auth/phone.js';
import { findUserById, findUserByPhone, findUserByUsername } from '../users/repository.js';
import type { UserRow } from '../users/model.js';
import { CONTACT_SELECT, type ContactView } from './model.js';
import { contactOf, tellContactChanged, tellContactRemoved } from './events.js';

export interface AddContactInput {
  user_phone?: string | undefined;
  name: string;
  username?: string | undefined;
}

export interface AddContactResult {
  added: boolean;
  /** The phone has no account yet: an invitation was sent and the contact appears when they join. */
  invited: boolean;
  contact?: ContactView;
}

/** How many invitations by SMS one person may send a day: each costs money and could be abused. */
const INVITES_PER_DAY = 20;

export class ContactsService {
  constructor(private readonly services: Services) {}

  async list(ownerId: number): Promise<ContactView[]> {
    return this.services.db.query<ContactView & Record<string, unknown>>(
      `${CONTACT_SELECT} WHERE c.owner_id = $1 ORDER BY lower(coalesce(nullif(c.alias_name, ''), nullif(u.name, ''), u.username, '')), u.id`,
      [ownerId],
    );
  }

  async add(ownerId: number, input: AddContactInput, origin: string): Promise<AddContactResult> {
    const name = input.name.trim();
    if (!name) throw badRequest('A contact needs a name', 'name_required');
    const username = input.username?.trim().replace(/^@/, '') || undefined;
    const rawPhone = input.user_phone?.trim() || undefined;
    if (!rawPhone && !username) throw badRequest('Give a phone number or a username', 'phone_or_username_required');
    const phone = rawPhone ? toE164(rawPhone) : undefined;
    if (rawPhone && !phone) throw badRequest('Invalid phone number', 'invalid_phone');

    const db = this.services.db;
    const owner = await findUserById(db, ownerId);
    if (!owner) throw notFound(ServerStrings.noSuchUser, 'no_such_user');
    const person = phone ? await findUserByPhone(db, phone) : await findUserByUsername(db, username!);

    if (!person || person.deleted || person.temporary) {
      // A deleted account keeps its phone and never signs in again: inviting that number would wait for nobody.
      if (!phone || person?.deleted) return { added: false, invited: false };
      if (phone === owner.phone) throw badRequest(ServerStrings.cannotAddContact, 'cannot_add_contact');
      return { added: false, invited: await this.invite(owner, phone, name, origin) };
    }
    if (person.id === ownerId) throw badRequest(ServerStrings.cannotAddContact, 'cannot_add_contact');
    // The owner's other tabs learn of it by an event, in the change's transaction (as of every change below).
    const contact = await db.transaction(async (tx) => {
      const inserted = await tx.query(
        `INSERT INTO contacts (owner_id, user_id, alias_name, phone_known) VALUES ($1, $2, $3, $4)
         ON CONFLICT (owner_id, user_id) DO NOTHING RETURNING user_id`,
        [ownerId, person.id, name, phone !== undefined],
      );
      if (inserted.length > 0) return this.tell(tx, owner, person.id, 'contact-added');
      // Typing in the number of someone already in the contacts (added by username or a link) proves it is known.
      const known = phone
        ? await tx.query('UPDATE contacts SET phone_known = true WHERE owner_id = $1 AND user_id = $2 AND NOT phone_known RETURNING user_id', [
            ownerId,
            person.id,
          ])
        : [];
      if (known.length > 0) await this.tell(tx, owner, person.id, 'contact-updated');
      return null;
    });
    if (!contact) throw conflict(ServerStrings.contactExists, 'contact_exists');
    return { added: true, invited: false, contact };
  }

  async rename(ownerId: number, userId: number, name: string): Promise<ContactView> {
    const trimmed = name.trim();
    if (!trimmed) throw badRequest('A contact needs a name', 'name_required');
    const owner = await findUserById(this.services.db, ownerId);
    if (!owner) throw notFound(ServerStrings.noSuchUser, 'no_such_user');
    return this.services.db.transaction(async (tx) => {
      const updated = await tx.query('UPDATE contacts SET alias_name = $3 WHERE owner_id = $1 AND user_id = $2 RETURNING user_id', [
        ownerId,
        userId,
        trimmed,
      ]);
      if (updated.length === 0) throw notFound('No such contact', 'no_such_contact');
      return this.tell(tx, owner, userId, 'contact-updated');
    });
  }

  async remove(ownerId: number, userId: number): Promise<void> {
    const owner = await findUserById(this.services.db, ownerId);
    if (!owner) throw notFound(ServerStrings.noSuchUser, 'no_such_user');
    await this.services.db.transaction(async (tx) => {
      const deleted = await tx.query('DELETE FROM contacts WHERE owner_id = $1 AND user_id = $2 RETURNING user_id', [ownerId, userId]);
      if (deleted.length === 0) throw notFound('No such contact', 'no_such_contact');
      await tellContactRemoved(tx, this.services.events, owner, userId);
    });
  }

  private tell(tx: Tx, owner: UserRow, userId: number, eventType: 'contact-added' | 'contact-updated'): Promise<ContactView> {
    return tellContactChanged(tx, this.services.events, owner, userId, eventType);
  }

  /** Records an invitation and texts the person the owner's invite link; 429 `invite_limit` past the daily cap. */
  private async invite(owner: UserRow, phone: string, name: string, origin: string): Promise<true> {
    // One owner's invitations one at a time (their row locked): two adds at once of the same phone (two tabs), or
    // of several phones at the daily cap, would otherwise both pass the checks (a 500, or more texts than the cap).
    const outcome = await this.services.db.transaction(async (tx) => {
      await tx.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [owner.id]);
      const renamed = await tx.query('UPDATE contact_invites SET alias_name = $3 WHERE owner_id = $1 AND phone = $2 RETURNING 1', [owner.id, phone, name]);
      if (renamed.length > 0) return 'known' as const; // already invited: do not text them again
      const [today] = await tx.query<{ count: number; oldest_age: number | null }>(
        `SELECT count(*) AS count, EXTRACT(EPOCH FROM now() - min(created_at))::float8 AS oldest_age
           FROM contact_invites WHERE owner_id = $1 AND created_at > now() - interval '1 day'`,
        [owner.id],
      );
      if (Number(today?.count ?? 0) >= INVITES_PER_DAY) {
        throw tooManyRequests('You have sent as many invitations as a day allows; try again later', 86_400 - (today?.oldest_age ?? 0), 'invite_limit');
      }
      await tx.query('INSERT INTO contact_invites (owner_id, phone, alias_name) VALUES ($1, $2, $3)', [owner.id, phone, name]);
      return 'new' as const;
    });
    if (outcome === 'known') return true;
    const inviter = owner.name || (owner.username ? `@${owner.username}` : 'A friend');
    await this.services.sms
      .send(phone, `${inviter} invites you to Messenger: ${origin}/link/${owner.invite_code}`)
      .catch(() => undefined); // the invitation stands even if this text fails; they can be invited by link
    return true;
  }
}

/**
 * When someone joins, everyone who had invited their phone gets them as a contact (with the name they typed)
 * and a `contact-joined` event, in the transaction that creates the account.
 */
export async function convertInvitesOnJoin(tx: Tx, events: EventLog, user: UserRow): Promise<void> {
  if (!user.phone) return;
  const invites = await tx.query<{ owner_id: number; alias_name: string }>(
    'DELETE FROM contact_invites WHERE phone = $1 RETURNING owner_id, alias_name',
    [user.phone],
  );
  // One's own invitation of the phone one now has (a change of phone) makes no contact of oneself.
  const others = invites.filter((invite) => invite.owner_id !== user.id);
  // Several owners' logs in one transaction: their rows locked in id order first, as every writer of the log does.
  await events.lockRecipients(tx, others.map((invite) => invite.owner_id));
  for (const invite of others) {
    await tx.query(
      `INSERT INTO contacts (owner_id, user_id, alias_name, phone_known) VALUES ($1, $2, $3, true)
       ON CONFLICT (owner_id, user_id) DO UPDATE SET phone_known = true`,
      [invite.owner_id, user.id, invite.alias_name],
    );
    const contact = await contactOf(tx, invite.owner_id, user.id);
    await events.append(tx, [invite.owner_id], 'contact-joined', { contact, user: { id: user.id } });
  }
}

/**
 * The first step of a change of someone's phone: the rows of everyone the change tells (the people who typed the
 * old number in, those who invited the new one, and `alsoLock`: those a profile change in the same transaction tells)
 * and the person's own, locked in id order, as every writer of the event log takes them. `phoneChanged` then does
 * the rest in the same transaction.
 */
export async function lockForPhoneChange(tx: Tx, events: EventLog, userId: number, newPhone: string, alsoLock: readonly number[] = []): Promise<void> {
  const owners = await tx.query<{ owner_id: number }>(
    `SELECT owner_id FROM contacts WHERE user_id = $1 AND phone_known
     UNION SELECT owner_id FROM contact_invites WHERE phone = $2`,
    [userId, newPhone],
  );
  const others = [...owners.map((owner) => owner.owner_id), ...alsoLock].filter((id) => id !== userId);
  await events.lockRecipients(tx, others.filter((id) => id < userId));
  // The person's own row FOR UPDATE at once: `phone` is a key (unique), so its UPDATE needs that lock, and taking
  // it later, over a weaker one, would wait on (and deadlock with) someone adding them to a group meanwhile.
  await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
  await events.lockRecipients(tx, others.filter((id) => id > userId));
}

/**
 * Someone's phone changed (`user` as it is now): nobody typed the new number in but those who had invited it,
 * whose invitations turn into contacts (`convertInvitesOnJoin`). So the contacts that showed the old number show
 * none from now on — a person changing numbers to get away from someone must not hand them the new one — and
 * their owners' tabs are told (`contact-updated`). Rows locked first by `lockForPhoneChange`.
 */
export async function phoneChanged(tx: Tx, events: EventLog, user: UserRow): Promise<void> {
  const owners = await tx.query<{ id: number; role: number }>(
    `UPDATE contacts c SET phone_known = false FROM users o
      WHERE c.user_id = $1 AND c.phone_known AND o.id = c.owner_id
      RETURNING o.id, o.role`,
    [user.id],
  );
  await convertInvitesOnJoin(tx, events, user);
  for (const owner of [...owners].sort((a, b) => a.id - b.id)) await tellContactChanged(tx, events, owner, user.id, 'contact-updated');
}
