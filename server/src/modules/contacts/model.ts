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

export const CONTACT_SELECT = `SELECT u.id, c.alias_name, u.name, u.username, u.phone, u.avatar,
         false AS is_deleted_contact, u.deleted
    FROM contacts c JOIN users u ON u.id = c.user_id`;
