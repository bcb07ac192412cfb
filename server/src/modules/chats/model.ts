import type { Chat, FileInfo, Message, MessageMeta, MessageType, Reaction } from '@messenger/protocol';

// The wire shapes of messages and chats live in the shared contract (packages/protocol), the client's as well.
export type { FileInfo, MessageMeta, MessageType, Reaction, ReplySnapshot } from '@messenger/protocol';
/** A message as every client sees it. */
export type MessageView = Message;
/** A chat as one person sees it: the unread count, notification flag and invite code are theirs. */
export type ChatView = Chat;

export interface MessageRow extends Record<string, unknown> {
  id: number;
  chat_id: number;
  sender_id: number;
  client_id: string;
  type: MessageType;
  text: string;
  file_path: string | null;
  file_name: string | null;
  file_size: number | null;
  file_mime: string | null;
  meta: MessageMeta | null;
  reply_to_id: number | null;
  reply_sender_id: number | null;
  reply_type: MessageType | null;
  reply_text: string | null;
  reply_file_path: string | null;
  reply_file_name: string | null;
  reply_file_size: number | null;
  reply_file_mime: string | null;
  forwarded_from_id: number | null;
  forwarded_from_name: string | null;
  created_at: Date | string;
  expires_at: Date | string | null;
  edited_at: Date | string | null;
  reactions: Reaction[] | null;
  mentions: Array<number | string> | null;
}

/**
 * The select list of a MessageRow over `MESSAGE_FROM` (alias `msg`): the file's name, size and type, the quoted
 * message (blanked once it is deleted or expired) and the original author of a forward come in the same row.
 */
/** A message's reactions as JSON (`msg` is the message): per emoji, who gave it, in the order they came. */
export const REACTIONS_OF_MESSAGE = `(SELECT json_agg(json_build_object('emoji', g.emoji, 'user_ids', g.user_ids) ORDER BY g.first)
     FROM (SELECT r.emoji, json_agg(r.user_id ORDER BY r.created_at, r.user_id) AS user_ids, min(r.created_at) AS first
             FROM message_reactions r WHERE r.message_id = msg.id GROUP BY r.emoji) g)`;

export const MESSAGE_FIELDS = `msg.id, msg.chat_id, msg.sender_id, msg.client_id, msg.type, msg.text, msg.file_path,
       msg.created_at, msg.expires_at, msg.edited_at, msg.meta, ${REACTIONS_OF_MESSAGE} AS reactions, msg.mentions,
       mf.original_name AS file_name, mf.size AS file_size, mf.mime AS file_mime,
       msg.reply_to_id, rm.sender_id AS reply_sender_id, rm.type AS reply_type,
       CASE WHEN rm.id IS NULL THEN NULL WHEN rm.deleted_at IS NULL AND (rm.expires_at IS NULL OR rm.expires_at > now())
            THEN rm.text ELSE '' END AS reply_text,
       rf.path AS reply_file_path, rf.original_name AS reply_file_name, rf.size AS reply_file_size, rf.mime AS reply_file_mime,
       msg.forwarded_from_id,
       CASE WHEN fu.deleted THEN '' ELSE coalesce(nullif(fu.name, ''), fu.username, '') END AS forwarded_from_name`;

export const MESSAGE_FROM = `messages msg
  LEFT JOIN files mf ON mf.path = msg.file_path
  LEFT JOIN messages rm ON rm.id = msg.reply_to_id
  LEFT JOIN files rf ON rf.path = rm.file_path AND rm.deleted_at IS NULL AND (rm.expires_at IS NULL OR rm.expires_at > now())
  LEFT JOIN users fu ON fu.id = msg.forwarded_from_id`;

export const MESSAGE_SELECT = `SELECT ${MESSAGE_FIELDS} FROM ${MESSAGE_FROM}`;

function fileInfo(path: string | null, name: string | null, size: number | null, mime: string | null): FileInfo | null {
  if (!path) return null;
  return { path, name: name ?? '', size: Number(size ?? 0), mime: mime ?? 'application/octet-stream' };
}

export function toMessage(row: MessageRow): MessageView {
  return {
    id: row.id,
    chat_id: row.chat_id,
    sender_id: row.sender_id,
    client_id: row.client_id,
    type: row.type,
    text: row.text,
    file_path: row.file_path,
    file: fileInfo(row.file_path, row.file_name, row.file_size, row.file_mime),
    meta: row.meta ?? {},
    reply_to:
      row.reply_to_id !== null && row.reply_sender_id !== null && row.reply_sender_id !== undefined
        ? {
            id: row.reply_to_id,
            sender_id: row.reply_sender_id,
            type: row.reply_type!,
            text: row.reply_text ?? '',
            file: fileInfo(row.reply_file_path, row.reply_file_name, row.reply_file_size, row.reply_file_mime),
          }
        : null,
    forwarded_from:
      row.forwarded_from_id !== null && row.forwarded_from_id !== undefined
        ? { user_id: row.forwarded_from_id, name: row.forwarded_from_name ?? '' }
        : null,
    created_at: new Date(row.created_at).toISOString(),
    expires_at: row.expires_at === null ? null : new Date(row.expires_at).toISOString(),
    edited_at: row.edited_at ? new Date(row.edited_at).toISOString() : null,
    reactions: row.reactions ?? [],
    mentions: (row.mentions ?? []).map(Number),
  };
}

export interface ChatRow extends Record<string, unknown> {
  id: number;
  chat_type: ChatView['chat_type'];
  is_secret: boolean;
  name: string;
  avatar: string | null;
  owner_id: number | null;
  invite_code: string | null;
  interval_seconds: number;
  created_at: Date | string;
  last_message_at: Date | string | null;
  /** Whose view this row is (null when the viewer is not a member: an admin looking at a secret group). */
  viewer_id: number | null;
  unread_count: number;
  unread_mentions: number;
  notifications: boolean;
  participants: number[];
  last_message: MessageRow | null;
  last_message_deleted: boolean;
  read_by_others_up_to: number;
}

/** The furthest read mark of the chat's other members (`viewer` is an SQL expression for the viewer's id). */
function readByOthers(viewer: string): string {
  // A newcomer's mark starts at the history they never read: it counts once they have read past it.
  return `(SELECT coalesce(max(o.last_read_message_id), 0) FROM chat_members o
            WHERE o.chat_id = c.id AND o.user_id <> ${viewer} AND o.last_read_message_id > o.read_from_message_id) AS read_by_others_up_to`;
}

/**
 * Whether chat `chat` (an SQL alias of `chats`) has no message left because its newest one was deleted by a person
 * (not expired): the list then previews "Message deleted" (spec §4). Only a chat with no message left is looked
 * into, and only its newest message (one index row).
 */
export function lastMessageDeleted(chat: string): string {
  return `CASE WHEN ${chat}.last_message_id IS NULL THEN coalesce((
            SELECT d.deleted_at IS NOT NULL AND (d.expires_at IS NULL OR d.expires_at > d.deleted_at)
              FROM messages d WHERE d.chat_id = ${chat}.id ORDER BY d.id DESC LIMIT 1), false) ELSE false END`;
}

const CHAT_FIELDS = `c.id, c.chat_type, c.is_secret, c.name, c.avatar, c.owner_id, c.invite_code, c.interval_seconds,
         c.created_at, c.last_message_at,
         (SELECT coalesce(json_agg(p.user_id ORDER BY p.joined_at, p.user_id), '[]'::json)
            FROM chat_members p WHERE p.chat_id = c.id) AS participants,
         (SELECT row_to_json(lm) FROM (
            SELECT ${MESSAGE_FIELDS} FROM ${MESSAGE_FROM}
             WHERE msg.id = c.last_message_id AND msg.deleted_at IS NULL) lm) AS last_message,
         ${lastMessageDeleted('c')} AS last_message_deleted`;

/**
 * Members' chats with everything a list row needs, in one query: one row per (member, chat), so filtering on
 * `m.user_id` gives one person's list and on `c.id` every member's view of one chat. Participants and the last
 * message come as JSON so both drivers parse them the same way.
 */
export const CHAT_SELECT = `
  SELECT ${CHAT_FIELDS}, m.user_id AS viewer_id, m.unread_count, m.unread_mentions, m.notifications, ${readByOthers('m.user_id')}
    FROM chat_members m JOIN chats c ON c.id = m.chat_id`;

/** Chats seen by someone who may not be a member (`$1` is the viewer): admins and secret groups. */
export const CHAT_SELECT_ANY = `
  SELECT ${CHAT_FIELDS}, m.user_id AS viewer_id, coalesce(m.unread_count, 0) AS unread_count, coalesce(m.unread_mentions, 0) AS unread_mentions,
         coalesce(m.notifications, true) AS notifications, ${readByOthers('$1')}
    FROM chats c LEFT JOIN chat_members m ON m.chat_id = c.id AND m.user_id = $1`;

export function toChat(row: ChatRow, origin: string, viewerId: number | null = row.viewer_id): ChatView {
  const isOwner = row.chat_type === 'group' && viewerId !== null && row.owner_id === viewerId;
  const code = isOwner ? row.invite_code : null;
  return {
    id: row.id,
    chat_type: row.chat_type,
    is_secret: row.is_secret,
    name: row.name,
    avatar: row.avatar,
    chat_avatar: row.avatar,
    participants: row.participants,
    owner_id: row.owner_id,
    invite_link: code ? `${origin}/link/${code}` : null,
    invite_code: code,
    interval: row.interval_seconds,
    created_at: new Date(row.created_at).toISOString(),
    last_message: row.last_message ? toMessage(row.last_message) : null,
    last_message_at: row.last_message_at === null ? null : new Date(row.last_message_at).toISOString(),
    last_message_deleted: row.last_message_deleted,
    unread_messages: row.unread_count,
    unread_mentions: row.unread_mentions,
    notifications: row.notifications,
    read_by_others_up_to: Number(row.read_by_others_up_to),
  };
}
