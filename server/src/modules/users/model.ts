import type { Me, PublicUser } from '@messenger/protocol';
/** A users row as the queries below select it. */
export interface UserRow extends Record<string, unknown> {
  id: number;
  phone: string | null;
  name: string;
  username: string | null;
  avatar: string | null;
  role: number;
  temporary: boolean;
  invite_code: string;
  notes: string;
  blocked: boolean;
  deleted: boolean;
  is_muted: boolean;
  popup_notifications: boolean;
  sound_notifications: boolean;
  private_notifications: boolean;
  created_at: Date | string;
  last_seen_privacy: 'everyone' | 'contacts' | 'nobody';
  /** Both staff passwords are set: the person signs in with them, not by SMS (the hashes never leave the database). */
  password_set: boolean;
}

const COLUMNS = ['id', 'phone', 'name', 'username', 'avatar', 'role', 'temporary', 'invite_code', 'notes', 'blocked',
  'deleted', 'is_muted', 'popup_notifications', 'sound_notifications', 'private_notifications', 'last_seen_privacy', 'created_at'];

/** The select list for a UserRow, optionally qualified with a table alias. */
export function userColumns(alias?: string): string {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  return [
    ...COLUMNS.map(column),
    `(${column('password_hash')} IS NOT NULL AND ${column('extra_password_hash')} IS NOT NULL) AS password_set`,
  ].join(', ');
}

/** The signed-in user's own view of themselves (`GET /api/user`): the contract's `Me` (packages/protocol). */
export type MeView = Me;

/** What anyone may see of another person; the phone only where the viewer already knows it: the contract's. */
export type PublicUserView = PublicUser;

export function toMe(row: UserRow, origin: string): MeView {
  return {
    id: row.id,
    name: row.name,
    username: row.username,
    phone: row.phone,
    avatar: row.avatar,
    role: row.role,
    temporary: row.temporary,
    invite_link: `${origin}/link/${row.invite_code}`,
    deleted: row.deleted,
    blocked: row.blocked,
    popup_notifications: row.popup_notifications,
    private_notifications: row.private_notifications,
    sound_notifications: row.sound_notifications,
    last_seen_privacy: row.last_seen_privacy,
    isMuted: row.is_muted,
    created_at: new Date(row.created_at).toISOString(),
    password_set: row.password_set,
  };
}

export function toPublic(row: UserRow, options: { showPhone: boolean; forAdmin?: boolean }): PublicUserView {
  const view: PublicUserView = {
    id: row.id,
    name: row.deleted ? '' : row.name,
    username: row.deleted ? null : row.username,
    avatar: row.deleted ? null : row.avatar,
    role: row.role,
    deleted: row.deleted,
  };
  if (options.showPhone && row.phone && !row.deleted) view.phone = row.phone;
  if (options.forAdmin) {
    view.blocked = row.blocked;
    view.notes = row.notes;
  }
  return view;
}
