import Type, { type Static } from 'typebox';
import { Deleted, Id, IdParams, Int, InviteCode, Nullable } from './common.js';
import { FileInfo } from './files.js';
import { AUTO_DELETE_INTERVALS, limits } from './limits.js';
import { JwtInfo, PublicUser } from './users.js';

export const MessageType = Type.Union([
  Type.Literal('text'),
  Type.Literal('image'),
  Type.Literal('audio'),
  Type.Literal('video'),
  Type.Literal('document'),
  Type.Literal('call'),
]);
export type MessageType = Static<typeof MessageType>;

export const CallStatus = Type.Union([
  Type.Literal('ringing'),
  Type.Literal('active'),
  Type.Literal('ended'),
  Type.Literal('missed'),
  Type.Literal('rejected'),
  Type.Literal('busy'),
]);
export type CallStatus = Static<typeof CallStatus>;

/** How a call that was rung ended (its message's `call_status` then, and the `hang` event's `reason`). */
export const CallEndReason = Type.Union([Type.Literal('ended'), Type.Literal('missed'), Type.Literal('rejected'), Type.Literal('busy')]);
export type CallEndReason = Static<typeof CallEndReason>;

/** What the sender said about a file (a voice message's length, a picture's size), and how a call went. */
export const MessageMeta = Type.Object({
  duration_ms: Type.Optional(Type.Integer()),
  width: Type.Optional(Type.Integer()),
  height: Type.Optional(Type.Integer()),
  /** A call's message: how the call went, set when it ends (absent while it runs). */
  call_status: Type.Optional(CallStatus),
  /** A call's message: how long it was connected, once it is over (null when it never was). */
  duration_seconds: Type.Optional(Nullable(Type.Integer())),
});
export type MessageMeta = Static<typeof MessageMeta>;

/** The quoted message of a reply as it is now: text '' and no file once it has been deleted. */
export const ReplySnapshot = Type.Object({
  id: Type.Integer(),
  sender_id: Type.Integer(),
  type: MessageType,
  text: Type.String(),
  file: Nullable(FileInfo),
});
export type ReplySnapshot = Static<typeof ReplySnapshot>;

/** Each emoji given to a message and who gave it, oldest first (one per person). */
export const Reaction = Type.Object({ emoji: Type.String(), user_ids: Type.Array(Type.Integer()) });
export type Reaction = Static<typeof Reaction>;

/** A message as every client sees it (spec §3 Message, plus who sent it, when, and what it carries). */
export const Message = Type.Object({
  id: Type.Integer(),
  chat_id: Type.Integer(),
  sender_id: Type.Integer(),
  /** The sender's own id for this message: a resend with the same id is the same message. */
  client_id: Type.String(),
  type: MessageType,
  text: Type.String(),
  file_path: Nullable(Type.String()),
  file: Nullable(FileInfo),
  meta: MessageMeta,
  reply_to: Nullable(ReplySnapshot),
  forwarded_from: Nullable(Type.Object({ user_id: Type.Integer(), name: Type.String() })),
  created_at: Type.String(),
  expires_at: Nullable(Type.String()),
  /** When its sender last edited the text; null if never. */
  edited_at: Nullable(Type.String()),
  reactions: Type.Array(Reaction),
  /** The members it mentions by @username (groups only), as they were when it was sent. */
  mentions: Type.Array(Type.Integer()),
});
export type Message = Static<typeof Message>;

export const ChatType = Type.Union([Type.Literal('private'), Type.Literal('group')]);
export type ChatType = Static<typeof ChatType>;

/** A chat as one person sees it (spec §3 Chat): the unread count, notification flag and invite code are theirs. */
export const Chat = Type.Object({
  id: Type.Integer(),
  chat_type: ChatType,
  is_secret: Type.Boolean(),
  name: Type.String(),
  avatar: Nullable(Type.String()),
  /** The spec's name for `avatar`; both are sent. */
  chat_avatar: Nullable(Type.String()),
  participants: Type.Array(Type.Integer()),
  owner_id: Nullable(Type.Integer()),
  /** `{origin}/link/{invite_code}`: like the code, only for the group's owner. */
  invite_link: Nullable(Type.String()),
  /** 'C-' + 10 letters or digits; groups only, and only for the owner (spec §6). */
  invite_code: Nullable(Type.String()),
  /** Auto-delete after this many seconds (one of `AUTO_DELETE_INTERVALS`); 0 is off. */
  interval: Type.Integer(),
  created_at: Type.String(),
  last_message: Nullable(Message),
  last_message_at: Nullable(Type.String()),
  /** No message is left and the newest one was deleted by a person (not expired): the preview says "Message deleted" (spec §4). */
  last_message_deleted: Type.Boolean(),
  unread_messages: Type.Integer(),
  /** Unread messages that mention the viewer (the chat list's @ marker). */
  unread_mentions: Type.Integer(),
  notifications: Type.Boolean(),
  /**
   * Read receipts: the newest message id someone other than the viewer has read up to (0: none). The viewer's own
   * messages up to it show as read; in a private chat that is the other person, in a group anyone.
   */
  read_by_others_up_to: Type.Integer(),
});
export type Chat = Static<typeof Chat>;

/** Per-chat settings the spec keeps apart from the chat (merged into it by clients). */
export const ChatMetadata = Type.Object({ id: Type.Integer(), chat_id: Type.Integer(), interval: Type.Integer() });
export type ChatMetadata = Static<typeof ChatMetadata>;

export const ChatList = Type.Object({
  chats: Type.Array(Chat),
  metadata: Type.Array(ChatMetadata),
  /** Profiles of the people in these chats, so a private chat can be named without one request per chat. */
  users: Type.Array(PublicUser),
  /** The caller's event-log head when this list was read: events up to it are already reflected. */
  seq: Type.Integer(),
});
export type ChatList = Static<typeof ChatList>;

export const HistoryPage = Type.Object({ messages: Type.Array(Message), has_more: Type.Boolean() });
export type HistoryPage = Static<typeof HistoryPage>;

/**
 * A stored file path (an avatar; whether it is the caller's image is checked by the server), or null to remove
 * it. Null comes first: with type coercion on, a string branch tried first would turn null into ''.
 */
const AvatarPath = Type.Union([Type.Null(), Type.String({ maxLength: 200 })]);

/**
 * A private chat (`participants`: the one other person) or a group (`name`, members, optional avatar, and
 * `is_secret` for staff). The rules that depend on the type (a name 1–60 after trimming, one other person for a
 * private chat) are checked by the server.
 */
export const CreateChatBody = Type.Object(
  {
    chat_type: ChatType,
    participants: Type.Array(Id, { maxItems: 500 }),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    avatar: Type.Optional(AvatarPath),
    is_secret: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type CreateChatBody = Static<typeof CreateChatBody>;

export const EditChatBody = Type.Object(
  { chat_id: Id, name: Type.Optional(Type.String({ maxLength: 200 })), avatar: Type.Optional(AvatarPath) },
  { additionalProperties: false },
);
export type EditChatBody = Static<typeof EditChatBody>;

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
export type ManageParticipantsBody = Static<typeof ManageParticipantsBody>;

/** The code's format (`C-` + 10 letters or digits) is checked by the server, to answer `invalid_code`. */
export const JoinChatBody = Type.Object({ code: Type.String({ maxLength: 64 }) }, { additionalProperties: false });

export const FindChatsQuery = Type.Object({
  query: Type.String({ maxLength: limits.searchMax }),
  is_admin: Type.Optional(Type.Boolean()),
});

export const NotificationsBody = Type.Object({ chat_id: Id, notifications: Type.Boolean() }, { additionalProperties: false });

export const IntervalBody = Type.Object(
  { chat_id: Id, interval: Type.Union(AUTO_DELETE_INTERVALS.map((value) => Type.Literal(value))) },
  { additionalProperties: false },
);

export const SearchQuery = Type.Object({ chat_id: Id, query: Type.String({ maxLength: limits.searchMax }) });

/** `PUT /chat/read`: `message_id`, when given, is the newest message the reader has seen; later ones stay unread. */
export const ReadQuery = Type.Object({ chat_id: Id, message_id: Type.Optional(Id) });

export const HistoryQuery = Type.Object({
  chat_id: Id,
  page_size: Type.Optional(Int({ minimum: 1, maximum: 100, default: 50 })),
  // Bounded so that (page_num - 1) × page_size stays a bigint OFFSET.
  page_num: Type.Optional(Int({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: 1 })),
  before_id: Type.Optional(Id),
});

/** `POST /user/link`: someone's personal invite code (its format is checked by the server). */
export const LinkQuery = Type.Object({ code: InviteCode }, { additionalProperties: false });

const ChatAnswer = Type.Object({ chat: Chat });

/**
 * The private chat with the link's owner; a visitor who was not signed in also gets the guest account made for
 * them (`jwt_info`, `is_new_user`).
 */
export const LinkAnswer = Type.Object({ chat: Chat, jwt_info: Type.Optional(JwtInfo), is_new_user: Type.Optional(Type.Literal(true)) });
export type LinkAnswer = Static<typeof LinkAnswer>;

/** Chats, their history and one's read state in them. (`POST /user/link`, someone's invite link, answers a chat.) */
export const chatRoutes = {
  list: { method: 'GET', url: '/chat/list', response: ChatList },
  /** Admins: every secret group, read-only. */
  listAll: { method: 'GET', url: '/chat/list/all', response: Type.Object({ chats: Type.Array(Chat), users: Type.Array(PublicUser) }) },
  /** 201 with a new chat, 200 with the private chat the two already had. */
  create: { method: 'POST', url: '/chat/create', body: CreateChatBody, status: [200, 201], response: ChatAnswer },
  edit: { method: 'PUT', url: '/chat/edit', body: EditChatBody, response: ChatAnswer },
  manageParticipants: { method: 'PUT', url: '/chat/manage-participants', body: ManageParticipantsBody, response: ChatAnswer },
  join: { method: 'POST', url: '/chat/join', body: JoinChatBody, response: ChatAnswer },
  find: { method: 'GET', url: '/chat/find', querystring: FindChatsQuery, response: Type.Object({ chats: Type.Array(Chat) }) },
  notifications: {
    method: 'PUT',
    url: '/chat/notifications',
    body: NotificationsBody,
    response: Type.Object({ chat_id: Type.Integer(), notifications: Type.Boolean() }),
  },
  interval: { method: 'PUT', url: '/chat/interval', body: IntervalBody, response: Type.Object({ chat_id: Type.Integer(), interval: Type.Integer() }) },
  history: { method: 'GET', url: '/chat/history', querystring: HistoryQuery, response: HistoryPage },
  search: { method: 'GET', url: '/chat/search', querystring: SearchQuery, response: Type.Object({ message_ids: Type.Array(Type.Integer()) }) },
  read: {
    method: 'PUT',
    url: '/chat/read',
    querystring: ReadQuery,
    response: Type.Object({ chat_id: Type.Integer(), unread_messages: Type.Integer() }),
  },
  unreadCount: {
    method: 'GET',
    url: '/chat/unread-count/:id',
    params: IdParams,
    response: Type.Object({ chat_id: Type.Integer(), unread_messages: Type.Integer(), unread_mentions: Type.Integer() }),
  },
  get: { method: 'GET', url: '/chat/:id', params: IdParams, response: ChatAnswer },
  remove: { method: 'DELETE', url: '/chat/:id', params: IdParams, response: Deleted },
  link: { method: 'POST', url: '/user/link', querystring: LinkQuery, response: LinkAnswer },
} as const;
