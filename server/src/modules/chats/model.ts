/** A message as every client sees it (spec §3 Message, plus who sent it and when). */
export interface MessageView {
  id: number;
  chat_id: number;
  sender_id: number;
  /** The sender's own id for this message: a resend with the same id is the same message. */
  client_id: string;
  type: 'text' | 'image' | 'audio' | 'video' | 'document' | 'call';
  text: string;
  file_path: string | null;
  created_at: string;
  expires_at: string | null;
}

export interface MessageRow extends Record<string, unknown> {
  id: number;
  chat_id: number;
  sender_id: number;
  client_id: string;
  type: MessageView['type'];
  text: string;
  file_path: string | null;
  created_at: Date | string;
  expires_at: Date | string | null;
}

export const MESSAGE_COLUMNS = 'id, chat_id, sender_id, client_id, type, text, file_path, created_at, expires_at';

export function toMessage(row: MessageRow): MessageView {
  return {
    id: row.id,
    chat_id: row.chat_id,
    sender_id: row.sender_id,
    client_id: row.client_id,
    type: row.type,
    text: row.text,
    file_path: row.file_path,
    created_at: new Date(row.created_at).toISOString(),
    expires_at: row.expires_at === null ? null : new Date(row.expires_at).toISOString(),
  };
}

/** A chat as one member sees it (spec §3 Chat): the unread count and notification flag are theirs. */
export interface ChatView {
  id: number;
  chat_type: 'private' | 'group';
  is_secret: boolean;
  name: string;
  avatar: string | null;
  chat_avatar: string | null;
  participants: number[];
  owner_id: number | null;
  invite_link: string | null;
  interval: number;
  created_at: string;
  last_message: MessageView | null;
  last_message_at: string | null;
  unread_messages: number;
  notifications: boolean;
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
  unread_count: number;
  notifications: boolean;
  participants: number[];
  last_message: MessageRow | null;
}

/**
 * One member's chats with everything a list row needs, in one query. Participants and the last message come as
 * JSON so both drivers parse them the same way.
 */
export const CHAT_SELECT = `
  SELECT c.id, c.chat_type, c.is_secret, c.name, c.avatar, c.owner_id, c.invite_code, c.interval_seconds,
         c.created_at, c.last_message_at, m.unread_count, m.notifications,
         (SELECT coalesce(json_agg(p.user_id ORDER BY p.joined_at, p.user_id), '[]'::json)
            FROM chat_members p WHERE p.chat_id = c.id) AS participants,
         (SELECT row_to_json(lm) FROM (
            SELECT id, chat_id, sender_id, client_id, type, text, file_path, created_at, expires_at
              FROM messages WHERE id = c.last_message_id AND deleted_at IS NULL) lm) AS last_message
    FROM chat_members m JOIN chats c ON c.id = m.chat_id`;

export function toChat(row: ChatRow, origin: string): ChatView {
  return {
    id: row.id,
    chat_type: row.chat_type,
    is_secret: row.is_secret,
    name: row.name,
    avatar: row.avatar,
    chat_avatar: row.avatar,
    participants: row.participants,
    owner_id: row.owner_id,
    invite_link: row.invite_code ? `${origin}/link/${row.invite_code}` : null,
    interval: row.interval_seconds,
    created_at: new Date(row.created_at).toISOString(),
    last_message: row.last_message ? toMessage(row.last_message) : null,
    last_message_at: row.last_message_at === null ? null : new Date(row.last_message_at).toISOString(),
    unread_messages: row.unread_count,
    notifications: row.notifications,
  };
}
