/** A contact as the owner sees it (spec §3 Contact). `id` is the contact's user id. */
export interface ContactView {
  id: number;
  alias_name: string;
  name: string;
  username: string | null;
  phone: string | null;
  avatar: string | null;
  is_deleted_contact: boolean;
  deleted: boolean;
}

/** The phone only where the owner typed it in themselves (added or invited by number), never from a link or a username. */
export const CONTACT_SELECT = `SELECT u.id, c.alias_name, u.name, u.username,
         CASE WHEN c.phone_known AND NOT u.deleted THEN u.phone END AS phone, u.avatar,
         false AS is_deleted_contact, u.deleted
    FROM contacts c JOIN users u ON u.id = c.user_id`;
