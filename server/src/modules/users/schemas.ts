import Type from 'typebox';
import { Id } from '../../http/schema-types.js';
import { USERNAME_PATTERN, limits } from '@messenger/protocol';

export { USERNAME_PATTERN } from '@messenger/protocol';

export const EditUserBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: limits.nameMax })),
    username: Type.Optional(Type.Union([Type.String({ pattern: USERNAME_PATTERN }), Type.Literal(''), Type.Null()])),
    popup_notifications: Type.Optional(Type.Boolean()),
    sound_notifications: Type.Optional(Type.Boolean()),
    private_notifications: Type.Optional(Type.Boolean()),
    /** Who sees when they were last online (issue 14, presence). */
    last_seen_privacy: Type.Optional(Type.Union([Type.Literal('everyone'), Type.Literal('contacts'), Type.Literal('nobody')])),
    /** A stored image path the caller uploaded, or null ('' too) to remove the avatar. Null first: see chats. */
    avatar: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 200 })])),
  },
  { additionalProperties: false },
);

/** `?code=`: the invite code of the link followed (the last part of `{host}/link/{code}`). */
export const LinkQuery = Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });

export const PhoneBody = Type.Object({ phone: Type.String({ minLength: 1, maxLength: limits.phoneMaxLength }) }, { additionalProperties: false });

export const VerifyPhoneBody = Type.Object(
  { phone: Type.String({ minLength: 1, maxLength: limits.phoneMaxLength }), code: Type.String({ pattern: '^[0-9]{6}$' }) },
  { additionalProperties: false },
);

export const BlockUserBody = Type.Object(
  { user_id: Id, blocked: Type.Boolean() },
  { additionalProperties: false },
);

export const UserIdParams = Type.Object({ id: Id });

export const FindUserQuery = Type.Object({ query: Type.String({ maxLength: limits.searchMax }) });
