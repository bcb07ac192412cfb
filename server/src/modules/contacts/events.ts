import type { Queryable, Tx } from '../../db/index.js';
import type { EventLog } from '../../events/log.js';
import { publicProfiles } from '../users/repository.js';
import { CONTACT_SELECT, type ContactView } from './model.js';

/** Who a contact event is for: the owner, whose role decides what of the person's profile they see. */
export interface ContactOwner {
  id: number;
  role: number;
}

/** A contact just written in this transaction, as its owner sees it. */
export async function contactOf(tx: Queryable, ownerId: number, userId: number): Promise<ContactView> {
  const [contact] = await tx.query<ContactView>(`${CONTACT_SELECT} WHERE c.owner_id = $1 AND c.user_id = $2`, [ownerId, userId]);
  if (!contact) throw new Error('the contact just written is not there');
  return contact;
}

/**
 * Tells the owner (their other tabs) that a contact was added or changed: the contact, and the person's profile as
 * the owner now sees it (a contact whose phone the owner typed shows it everywhere). Returns the contact.
 */
export async function tellContactChanged(
  tx: Tx,
  events: EventLog,
  owner: ContactOwner,
  userId: number,
  eventType: 'contact-added' | 'contact-updated',
): Promise<ContactView> {
  const contact = await contactOf(tx, owner.id, userId);
  const [user] = await publicProfiles(tx, owner.id, owner.role, [userId]);
  if (!user) throw new Error('a contact without a profile');
  await events.append(tx, [owner.id], eventType, { contact, user });
  return contact;
}

/** Tells the owner a contact is gone, with the person's profile as they see it now (no phone, unless otherwise known). */
export async function tellContactRemoved(tx: Tx, events: EventLog, owner: ContactOwner, userId: number): Promise<void> {
  const [user] = await publicProfiles(tx, owner.id, owner.role, [userId]);
  if (user) await events.append(tx, [owner.id], 'contact-removed', { contact_id: userId, user });
}
