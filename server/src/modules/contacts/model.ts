import type { Contact } from '@messenger/protocol';

/** A contact as the owner sees it: the contract's `Contact` (packages/protocol). */
export type ContactView = Contact;

/** The phone only where the owner typed it in themselves (added or invited by number), never from a link or a username. */
export const CONTACT_SELECT = `SELECT u.id, c.alias_name, u.name, u.username,
         CASE WHEN c.phone_known AND NOT u.deleted THEN u.phone END AS phone, u.avatar,
         false AS is_deleted_contact, u.deleted
    FROM contacts c JOIN users u ON u.id = c.user_id`;
