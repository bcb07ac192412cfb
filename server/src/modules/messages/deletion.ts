import type { Tx } from '../../db/index.js';
import type { EventLog } from '../../events/log.js';
import { findMessageView } from '../chats/repository.js';
import { lastMessageDeleted } from '../chats/model.js';

/**
 * The one way messages are deleted — by their sender or an owner (`DELETE /chat/message/{id}`), by the expiry
 * sweeper, and by `DELETE /file/delete/all`. The caller holds the chat's row lock (`lockChat`). In this
 * transaction:
 *
 * - the messages are soft-deleted (`deleted_at`);
 * - each member who had not read a message (someone else sent it, after the member's read mark) gets unread − 1
 *   (and unread mentions − 1 when it mentioned them),
 *   so the count stays exactly "messages from others after my read mark";
 * - when the chat's last message went, the chat's last message becomes its latest live one (or none);
 * - every member gets, per message, `message-deleted {chat_id, message_id, last_message, last_message_deleted,
 *   unread_messages, unread_mentions}`: the last two are that member's counts after the deletion (the server owns
 *   read state: clients show these rather than work them out).
 *
 * Returns the ids actually deleted (those not deleted already).
 */
export async function deleteMessages(tx: Tx, events: EventLog, chatId: number, messageIds: number[]): Promise<number[]> {
  if (messageIds.length === 0) return [];
  const gone = await tx.query<{ id: number }>(
    `WITH gone AS (
       UPDATE messages SET deleted_at = now()
        WHERE chat_id = $1 AND id = ANY($2::bigint[]) AND deleted_at IS NULL
        RETURNING id, sender_id, mentions
     ), unread AS (
       SELECT cm.user_id, count(*) AS n, count(*) FILTER (WHERE cm.user_id = ANY(g.mentions)) AS mentioned
         FROM chat_members cm JOIN gone g ON g.sender_id <> cm.user_id AND g.id > cm.last_read_message_id
        WHERE cm.chat_id = $1
        GROUP BY cm.user_id
     ), lowered AS (
       UPDATE chat_members cm SET unread_count = greatest(cm.unread_count - unread.n, 0),
                                  unread_mentions = greatest(cm.unread_mentions - unread.mentioned, 0)
         FROM unread WHERE cm.chat_id = $1 AND cm.user_id = unread.user_id
       RETURNING cm.user_id
     )
     SELECT id FROM gone ORDER BY id`,
    [chatId, messageIds],
  );
  if (gone.length === 0) return [];
  const deleted = gone.map((row) => row.id);

  const [chat] = await tx.query<{ last_message_id: number | null }>('SELECT last_message_id FROM chats WHERE id = $1', [chatId]);
  if (chat && (chat.last_message_id === null || deleted.includes(chat.last_message_id))) {
    // The newest message still standing: not deleted and not already past its expiry (the sweeper takes those).
    // With none left the chat keeps its place in the list (its last activity), its preview "Message deleted".
    await tx.query(
      `UPDATE chats c SET last_message_id = latest.id, last_message_at = coalesce(latest.created_at, c.last_message_at)
         FROM (SELECT (SELECT id FROM messages
                        WHERE chat_id = $1 AND deleted_at IS NULL AND (expires_at IS NULL OR expires_at > now())
                        ORDER BY id DESC LIMIT 1) AS id) pick
         LEFT JOIN messages latest ON latest.id = pick.id
        WHERE c.id = $1`,
      [chatId],
    );
  }
  const [current] = await tx.query<{ last_message_id: number | null; last_message_deleted: boolean }>(
    `SELECT c.last_message_id, ${lastMessageDeleted('c')} AS last_message_deleted FROM chats c WHERE c.id = $1`,
    [chatId],
  );
  const lastMessage = current?.last_message_id ? await findMessageView(tx, current.last_message_id) : null;
  // The counts said are the last: a read mark of this chat waits for the chat's lock, which the caller holds.
  const members = await tx.query<{ user_id: number; unread_count: number; unread_mentions: number }>(
    'SELECT user_id, unread_count, unread_mentions FROM chat_members WHERE chat_id = $1',
    [chatId],
  );
  const unread = new Map(members.map((row) => [Number(row.user_id), row]));
  for (const messageId of deleted) {
    await events.append(tx, unread.keys(), 'message-deleted', (userId) => ({
      chat_id: chatId,
      message_id: messageId,
      last_message: lastMessage,
      last_message_deleted: current?.last_message_deleted ?? false,
      unread_messages: unread.get(userId)!.unread_count,
      unread_mentions: unread.get(userId)!.unread_mentions,
    }));
  }
  return deleted;
}
