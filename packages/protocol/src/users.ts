import Type, { type Static } from 'typebox';
import { Id, IdParams, Nullable, Phone, SIGN_IN_CODE_PATTERN, UsernameChange } from './common.js';
import { limits } from './limits.js';

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

/** What anyone may see of another person; the phone only where the viewer already knows it. */
export const PublicUser = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  username: Nullable(Type.String()),
  avatar: Nullable(Type.String()),
  role: Type.Integer(),
  deleted: Type.Boolean(),
  phone: Type.Optional(Type.String()),
  /** Shown to admins only (they can block and unblock, and keep notes about people). */
  blocked: Type.Optional(Type.Boolean()),
  notes: Type.Optional(Type.String()),
});
export type PublicUser = Static<typeof PublicUser>;

/**
 * Someone's presence as the viewer may see it: online, or offline since `last_seen_at` — or, where they keep it
 * from the viewer, only roughly when they were last online.
 */
export const Presence = Type.Object({
  user_id: Type.Integer(),
  status: Type.Union([
    Type.Literal('online'),
    Type.Literal('offline'),
    Type.Literal('recently'),
    Type.Literal('within_week'),
    Type.Literal('within_month'),
    Type.Literal('long_ago'),
  ]),
  last_seen_at: Nullable(Type.String()),
});
export type Presence = Static<typeof Presence>;

/** A session's tokens. */
export const JwtInfo = Type.Object({ access_token: Type.String(), refresh_token: Type.String() });
export type JwtInfo = Static<typeof JwtInfo>;

export const EditUserBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: limits.nameMax })),
    username: Type.Optional(UsernameChange),
    popup_notifications: Type.Optional(Type.Boolean()),
    sound_notifications: Type.Optional(Type.Boolean()),
    private_notifications: Type.Optional(Type.Boolean()),
    /** Who sees when they were last online. */
    last_seen_privacy: Type.Optional(LastSeenPrivacy),
    /** A stored image path the caller uploaded, or null ('' too) to remove the avatar. Null first: see chats. */
    avatar: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 200 })])),
  },
  { additionalProperties: false },
);
export type EditUserBody = Static<typeof EditUserBody>;

export const PhoneBody = Type.Object({ phone: Phone }, { additionalProperties: false });

export const VerifyPhoneBody = Type.Object({ phone: Phone, code: Type.String({ pattern: SIGN_IN_CODE_PATTERN }) }, { additionalProperties: false });

export const BlockUserBody = Type.Object({ user_id: Id, blocked: Type.Boolean() }, { additionalProperties: false });

export const FindUserQuery = Type.Object({ query: Type.String({ maxLength: limits.searchMax }) });

const MeAnswer = Type.Object({ user: Me });
const PersonAnswer = Type.Object({ user: PublicUser });

/** One's own profile, other people, a guest's phone. (`POST /user/link` answers a chat: it joins with the chats.) */
export const userRoutes = {
  me: { method: 'GET', url: '/user', response: MeAnswer },
  edit: { method: 'PUT', url: '/user/edit', body: EditUserBody, response: MeAnswer },
  find: { method: 'GET', url: '/user/find', querystring: FindUserQuery, response: Type.Object({ users: Type.Array(PublicUser) }) },
  presence: { method: 'GET', url: '/user/:id/presence', params: IdParams, response: Type.Object({ presence: Presence }) },
  setPhone: {
    method: 'PUT',
    url: '/user/phone',
    body: PhoneBody,
    response: Type.Object({ sent: Type.Literal(true), resend_after: Type.Integer() }),
  },
  verifyPhone: { method: 'PUT', url: '/user/phone/verify', body: VerifyPhoneBody, response: Type.Object({ user: Me, jwt_info: JwtInfo }) },
  block: { method: 'PUT', url: '/user/block', body: BlockUserBody, response: PersonAnswer },
  profile: { method: 'GET', url: '/user/:id', params: IdParams, response: PersonAnswer },
} as const;
