import Type from 'typebox';
import { Id, Int } from '../../http/schema-types.js';
import { limits } from '@messenger/protocol';

/**
 * A stored file path (an avatar; whether it is the caller's image is checked in the service), or null to remove
 * it. Null comes first: with type coercion on, a string branch tried first would turn null into ''.
 */
const AvatarPath = Type.Union([Type.Null(), Type.String({ maxLength: 200 })]);

/**
 * A private chat (`participants`: the one other person) or a group (`name`, members, optional avatar, and
 * `is_secret` for staff). The rules that depend on the type (a name 1–60 after trimming, one other person for a
 * private chat) are checked in the service.
 */
export const CreateChatBody = Type.Object(
  {
    chat_type: Type.Union([Type.Literal('private'), Type.Literal('group')]),
    participants: Type.Array(Id, { maxItems: 500 }),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    avatar: Type.Optional(AvatarPath),
    is_secret: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const EditChatBody = Type.Object(
  { chat_id: Id, name: Type.Optional(Type.String({ maxLength: 200 })), avatar: Type.Optional(AvatarPath) },
  { additionalProperties: false },
);

export const ManageParticipantsBody = Type.Object(
  {
    chat_id: Id,
    actions: Type.Array(
      Type.Object({ add: Type.Boolean(), participants: Type.Array(Id, { maxItems: 500 }) }, { additionalProperties: false }),
      { minItems: 1, maxItems: 20 },
    ),
  },
  { additionalProperties: false },
);

/** The code's format (`C-` + 10 letters or digits) is checked in the service, to answer `invalid_code`. */
export const JoinChatBody = Type.Object({ code: Type.String({ maxLength: 64 }) }, { additionalProperties: false });

export const FindChatsQuery = Type.Object({
  query: Type.String({ maxLength: limits.searchMax }),
  is_admin: Type.Optional(Type.Boolean()),
});

export const NotificationsBody = Type.Object({ chat_id: Id, notifications: Type.Boolean() }, { additionalProperties: false });

/** Auto-delete intervals of spec §4, in seconds; 0 is off. */
export const INTERVALS = [0, 5, 10, 30, 60, 300, 3600, 21600, 43200, 86400, 259200, 604800, 1209600] as const;

export const IntervalBody = Type.Object(
  { chat_id: Id, interval: Type.Union(INTERVALS.map((value) => Type.Literal(value))) },
  { additionalProperties: false },
);

export const SearchQuery = Type.Object({ chat_id: Id, query: Type.String({ maxLength: limits.searchMax }) });

export const ChatIdParams = Type.Object({ id: Id });
export const ChatIdQuery = Type.Object({ chat_id: Id });

/** `PUT /chat/read`: `message_id`, when given, is the newest message the reader has seen; later ones stay unread. */
export const ReadQuery = Type.Object({ chat_id: Id, message_id: Type.Optional(Id) });

export const HistoryQuery = Type.Object({
  chat_id: Id,
  page_size: Type.Optional(Int({ minimum: 1, maximum: 100, default: 50 })),
  // Bounded so that (page_num - 1) × page_size stays a bigint OFFSET.
  page_num: Type.Optional(Int({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: 1 })),
  before_id: Type.Optional(Id),
});
