import Type, { type Static } from 'typebox';
import { Nullable } from './common.js';

export const LastSeenPrivacy = Type.Union([Type.Literal('everyone'), Type.Literal('contacts'), Type.Literal('nobody')]);
export type LastSeenPrivacy = Static<typeof LastSeenPrivacy>;

/** The signed-in person's own view of themselves (`GET /user`, and every route that changes it). */
export const Me = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  username: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  avatar: Nullable(Type.String()),
  role: Type.Integer(),
  /** A guest (came by an invite link, no phone yet). */
  temporary: Type.Boolean(),
  invite_link: Type.String(),
  deleted: Type.Boolean(),
  blocked: Type.Boolean(),
  popup_notifications: Type.Boolean(),
  private_notifications: Type.Boolean(),
  sound_notifications: Type.Boolean(),
  /** Who sees when they were last online: everyone, their contacts, nobody. */
  last_seen_privacy: LastSeenPrivacy,
  isMuted: Type.Boolean(),
  created_at: Type.String(),
  /** Staff: whether both passwords are set (until then staff routes answer `password_setup_required`). */
  password_set: Type.Boolean(),
});
export type Me = Static<typeof Me>;
