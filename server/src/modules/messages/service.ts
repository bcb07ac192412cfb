import type { Services } from '../../services.js';
import { ServerStrings, badRequest, forbidden } from '../../http/errors.js';
import { findUserById } from '../users/repository.js';
import { toPublic } from '../users/model.js';
import { MESSAGE_COLUMNS, type MessageRow, type MessageView, toMessage } from '../chats/model.js';
import { requireMembership } from '../chats/repository.js';

/** Longest message text (spec §9). */
export const TEXT_MAX = 10_000;

export interface SendTextInput {
  chat_id: number;
  client_id: string;
  text: string;
}

export interface SendResult {
  message: MessageView;
  /** False when this client id was already stored: the original is returned and nothing is sent again. */
  created: boolean;
}

export class MessagesService {
  constructor(private readonly services: Services) {}

  /**
   * Stores a text message and, in the same transaction, tells every member through their event log. Resolves only
   * after COMMIT, so an acknowledgement means the message is durable. Idempotent per (sender, client id).
   */
  async sendText(senderId: number, input: SendTextInput): Promise<SendResult> {
    const text = input.text.trim();
    if (!text) throw badRequest('A message cannot be empty', 'empty_message');
    if (text.length > TEXT_MAX) throw badRequest(`A message can be at most ${TEXT_MAX} characters`, 'message_too_long');
    const db = this.services.db;
    const sender = await findUserById(db, senderId);
    if (!sender || sender.deleted) throw forbidden(ServerStrings.noSuchUser, 'no_such_user');
    if (sender.is_muted) throw forbidden(ServerStrings.muted, 'muted');
    const user = toPublic(sender, { showPhone: false });

    const message = await db.transaction(async (tx) => {
      const members = await requireMembership(tx, senderId, input.chat_id);
      const [row] = await tx.query<MessageRow>(
        `INSERT INTO messages (chat_id, sender_id, client_id, type, text) VALUES ($1, $2, $3, 'text', $4)
         ON CONFLICT (sender_id, client_id) DO NOTHING RETURNING ${MESSAGE_COLUMNS}`,
        [input.chat_id, senderId, input.client_id, text],
      );
      if (!row) return null; // sent before (a retry): the stored one is answered, nothing is told again
      const message = toMessage(row);
      await tx.query('UPDATE chats SET last_message_id = $2, last_message_at = $3 WHERE id = $1', [
        input.chat_id,
        message.id,
        row.created_at,
      ]);
      await tx.query(
        `UPDATE chat_members SET
           unread_count = CASE WHEN user_id = $2 THEN 0 ELSE unread_count + 1 END,
           last_read_message_id = CASE WHEN user_id = $2 THEN $3 ELSE last_read_message_id END
         WHERE chat_id = $1`,
        [input.chat_id, senderId, message.id],
      );
      await this.services.events.append(tx, members, message.type, {
        chat_id: input.chat_id,
        message_id: message.id,
        message,
        user,
      });
      return message;
    });
    if (message) return { message, created: true };
    return { message: (await this.findByClientId(senderId, input.client_id))!, created: false };
  }

  private async findByClientId(senderId: number, clientId: string): Promise<MessageView | undefined> {
    const [row] = await this.services.db.query<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE sender_id = $1 AND client_id = $2`,
      [senderId, clientId],
    );
    return row ? toMessage(row) : undefined;
  }
}
