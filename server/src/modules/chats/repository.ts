import type { Queryable } from '../../db/index.js';
import { ServerStrings, notFound } from '../../http/errors.js';
import { CHAT_SELECT, type ChatRow } from './model.js';

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

/**
 * The member ids of a chat the caller takes part in. A chat they are not in answers exactly like one that does
 * not exist, so ids cannot be probed.
 */
export async function requireMembership(db: Queryable, userId: number, chatId: number): Promise<number[]> {
  const rows = await db.query<{ user_id: number }>('SELECT user_id FROM chat_members WHERE chat_id = $1', [chatId]);
  const members = rows.map((row) => row.user_id);
  if (!members.includes(userId)) throw chatUnavailable();
  return members;
}

export function chatUnavailable() {
  return notFound(ServerStrings.chatUnavailable, 'chat_not_found');
}
