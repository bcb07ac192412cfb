import type { Queryable } from '../../db/index.js';
import { ServerStrings, notFound } from '../../http/errors.js';
import { CHAT_SELECT, MESSAGE_SELECT, type ChatRow, type ChatView, type MessageRow, type MessageView, toChat, toMessage } from './model.js';

export async function listChatRows(db: Queryable, userId: number): Promise<ChatRow[]> {
  return db.query<ChatRow>(
    `${CHAT_SELECT} WHERE m.user_id = $1 ORDER BY c.last_message_at DESC NULLS LAST, c.created_at DESC, c.id DESC`,
    [userId],
  );
}

export async function findChatRow(db: Queryable, userId: number, chatId: number): Promise<ChatRow | undefined> {
  const rows = await db.query<ChatRow>(`${CHAT_SELECT} WHERE m.user_id = $1 AND c.id = $2`, [userId, chatId]);
  return rows[0];
}

/** One chat as each of `userIds` (members) sees it, in one query: for per-recipient events. */
export async function chatViewsFor(db: Queryable, chatId: number, userIds: number[], origin: string): Promise<Map<number, ChatView>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.query<ChatRow>(`${CHAT_SELECT} WHERE c.id = $1 AND m.user_id = ANY($2::bigint[])`, [chatId, userIds]);
  return new Map(rows.map((row) => [row.viewer_id!, toChat(row, origin)]));
}

/** One member's view among those `chatViewsFor` read in this transaction (asked for, so there). */
export function memberView(views: Map<number, ChatView>, userId: number): ChatView {
  const view = views.get(userId);
  if (!view) throw new Error(`user ${userId} has no view of the chat read for them`);
  return view;
}

/**
 * The member ids of a chat the caller takes part in. A chat they are not in answers exactly like one that does
 * not exist, so ids cannot be probed.
 */
export async function requireMembership(db: Queryable, userId: number, chatId: number): Promise<number[]> {
  const members = await memberIds(db, chatId);
  if (!members.includes(userId)) throw chatUnavailable();
  return members;
}

export async function memberIds(db: Queryable, chatId: number): Promise<number[]> {
  const rows = await db.query<{ user_id: number }>('SELECT user_id FROM chat_members WHERE chat_id = $1 ORDER BY user_id', [chatId]);
  return rows.map((row) => row.user_id);
}

export interface LockedChat extends Record<string, unknown> {
  id: number;
  chat_type: 'private' | 'group';
  is_secret: boolean;
  owner_id: number | null;
  interval_seconds: number;
  last_message_id: number | null;
}

/**
 * Locks a chat's row for the rest of the transaction. Every change to a chat's members or messages takes this
 * lock first, so a message and a membership change are ordered: a member removed before a message is never told
 * of it, and one added after it never counted it unread. (Locks: chats before users, chats in id order.)
 */
export async function lockChat(db: Queryable, chatId: number): Promise<LockedChat | undefined> {
  const rows = await db.query<LockedChat>(
    `SELECT id, chat_type, is_secret, owner_id, interval_seconds, last_message_id FROM chats WHERE id = $1 FOR UPDATE`,
    [chatId],
  );
  return rows[0];
}

export async function findMessageView(db: Queryable, messageId: number): Promise<MessageView | null> {
  const rows = await db.query<MessageRow>(`${MESSAGE_SELECT} WHERE msg.id = $1 AND msg.deleted_at IS NULL`, [messageId]);
  return rows[0] ? toMessage(rows[0]) : null;
}

export function chatUnavailable() {
  return notFound(ServerStrings.chatUnavailable, 'chat_not_found');
}
