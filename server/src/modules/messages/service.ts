import type { Services } from '../../services.js';
import type { Tx } from '../../db/index.js';
import { HttpError, ServerStrings, badRequest, forbidden, notFound } from '../../http/errors.js';
import { findUserById } from '../users/repository.js';
import { toPublic } from '../users/model.js';
import { loadActor, usesAdminPower } from '../users/actor.js';
import { MESSAGE_SELECT, type MessageMeta, type MessageRow, type MessageType, type MessageView, toMessage } from '../chats/model.js';
import { chatUnavailable, findMessageView, lockChat, memberIds } from '../chats/repository.js';
import { ownFile } from '../files/access.js';
import { deleteMessages } from './deletion.js';
import { characterCount } from '../../http/text.js';

/** Longest message text (spec §9). */
export const TEXT_MAX = 10_000;

type SendableType = Exclude<MessageType, 'call'>;

export interface SendInput {
  chat_id: number;
  client_id: string;
  message_type?: SendableType | undefined;
  text?: string | undefined;
  file_path?: string | undefined;
  meta?: MessageMeta | undefined;
  reply_to_id?: number | undefined;
  forward_message_id?: number | undefined;
}

export interface SendResult {
  message: MessageView;
  /** False when this client id was already stored: the original is returned and nothing is sent again. */
  created: boolean;
}

/** What a new message row holds, from the sender's frame or copied from a forwarded message. */
interface Content {
  type: SendableType;
  text: string;
  file_path: string | null;
  meta: MessageMeta;
  reply_to_id: number | null;
  forwarded_from_id: number | null;
}

/** The MIME family each file-carrying type requires; `document` takes anything. */
const TYPE_FAMILY: Partial<Record<SendableType, string>> = { image: 'image/', audio: 'audio/', video: 'video/' };

const messageNotFound = () => notFound('Message not found', 'message_not_found');

export class MessagesService {
  constructor(private readonly services: Services) {}

  /**
   * Stores a message and, in the same transaction, tells every member through their event log. Resolves only
   * after COMMIT, so an acknowledgement means the message is durable. Idempotent per (sender, client id): a
   * retry gets the stored message back (even if it would now be refused) and nobody is told twice.
   */
  async send(senderId: number, input: SendInput): Promise<SendResult> {
    const db = this.services.db;
    const sender = await findUserById(db, senderId);
    if (!sender || sender.deleted) throw forbidden(ServerStrings.noSuchUser, 'no_such_user');
    const user = toPublic(sender, { showPhone: false });
    try {
      if (sender.blocked) throw forbidden(ServerStrings.banned, 'banned');
      if (sender.is_muted) throw forbidden(ServerStrings.muted, 'muted');
      const message = await db.transaction(async (tx) => {
        // The chat's lock orders this message against membership changes and deletions (see lockChat).
        const chat = await lockChat(tx, input.chat_id);
        if (!chat) throw chatUnavailable();
        const members = await memberIds(tx, chat.id);
        if (!members.includes(senderId)) throw chatUnavailable();
        const content =
          input.forward_message_id !== undefined
            ? await this.forwarded(tx, senderId, input.forward_message_id)
            : await this.composed(tx, senderId, chat.id, input);
        const [row] = await tx.query<{ id: number; created_at: Date | string }>(
          `INSERT INTO messages (chat_id, sender_id, client_id, type, text, file_path, meta, reply_to_id, forwarded_from_id, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9,
                   CASE WHEN $10::integer > 0 THEN now() + make_interval(secs => $10::integer) END)
           ON CONFLICT (sender_id, client_id) DO NOTHING RETURNING id, created_at`,
          [
            chat.id,
            senderId,
            input.client_id,
            content.type,
            content.text,
            content.file_path,
            JSON.stringify(content.meta),
            content.reply_to_id,
            content.forwarded_from_id,
            chat.interval_seconds,
          ],
        );
        if (!row) return null; // sent before (a retry): the stored one is answered, nothing is told again
        await tx.query('UPDATE chats SET last_message_id = $2, last_message_at = $3 WHERE id = $1', [chat.id, row.id, row.created_at]);
        await tx.query(
          `UPDATE chat_members SET
             unread_count = CASE WHEN user_id = $2 THEN 0 ELSE unread_count + 1 END,
             last_read_message_id = CASE WHEN user_id = $2 THEN $3 ELSE last_read_message_id END
           WHERE chat_id = $1`,
          [chat.id, senderId, row.id],
        );
        const message = (await findMessageView(tx, row.id))!;
        await this.services.events.append(tx, members, message.type, { chat_id: chat.id, message_id: message.id, message, user });
        return message;
      });
      if (message) return { message, created: true };
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      const stored = await this.findByClientId(senderId, input.client_id);
      if (stored) return { message: stored, created: false };
      throw error;
    }
    return { message: (await this.findByClientId(senderId, input.client_id))!, created: false };
  }

  /**
   * Deletes one message: its sender, the group's owner, or an admin (role ≥ 2) in a secret group may. Someone
   * who cannot see the message gets 404, like for one that does not exist.
   */
  async delete(userId: number, messageId: number): Promise<void> {
    const actor = await loadActor(this.services.db, userId);
    await this.services.db.transaction(async (tx) => {
      const [found] = await tx.query<{ chat_id: number }>('SELECT chat_id FROM messages WHERE id = $1 AND deleted_at IS NULL', [messageId]);
      if (!found) throw messageNotFound();
      const chat = await lockChat(tx, found.chat_id);
      const [message] = await tx.query<{ sender_id: number }>('SELECT sender_id FROM messages WHERE id = $1 AND deleted_at IS NULL', [
        messageId,
      ]);
      if (!chat || !message) throw messageNotFound();
      const isMember = (await memberIds(tx, chat.id)).includes(userId);
      const isOwner = chat.chat_type === 'group' && chat.owner_id === userId;
      if (!isMember || (message.sender_id !== userId && !isOwner)) {
        // Only an admin's power is left; asked for only now, so an admin deleting their own message needs none.
        const staffOnSecret = chat.is_secret && usesAdminPower(actor);
        if (!staffOnSecret && !isMember) throw messageNotFound();
        if (!staffOnSecret) throw forbidden('Only its sender or the group’s owner can delete this message', 'not_allowed');
      }
      await deleteMessages(tx, this.services.events, chat.id, [messageId]);
    });
  }

  /** A new message's content from the frame: text, or a file this sender uploaded whose type fits. */
  private async composed(tx: Tx, senderId: number, chatId: number, input: SendInput): Promise<Content> {
    const type = input.message_type ?? 'text';
    const text = (input.text ?? '').trim();
    if (characterCount(text) > TEXT_MAX) throw badRequest(`A message can be at most ${TEXT_MAX} characters`, 'message_too_long');
    let filePath: string | null = null;
    if (type === 'text') {
      if (!text) throw badRequest('A message cannot be empty', 'empty_message');
      if (input.file_path !== undefined) throw badRequest('A text message carries no file; choose a file type', 'unexpected_file');
    } else {
      if (input.file_path === undefined) throw badRequest(`An ${type} message needs a file_path`, 'file_required');
      const file = await ownFile(tx, senderId, input.file_path);
      if (!file) throw badRequest('This file was not uploaded by you', 'file_not_yours');
      const family = TYPE_FAMILY[type];
      if (family && !file.mime.startsWith(family)) {
        throw badRequest(`An ${type} message needs a ${family}* file, not ${file.mime}`, 'file_type_mismatch');
      }
      filePath = file.path;
    }
    if (input.reply_to_id !== undefined) {
      const [quoted] = await tx.query(
        `SELECT 1 FROM messages WHERE id = $1 AND chat_id = $2 AND deleted_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
        [input.reply_to_id, chatId],
      );
      if (!quoted) throw badRequest('The message you reply to is not in this chat', 'reply_not_found');
    }
    return { type, text, file_path: filePath, meta: input.meta ?? {}, reply_to_id: input.reply_to_id ?? null, forwarded_from_id: null };
  }

  /** A forward copies type, text, file and meta of a live message in any chat the sender is in. */
  private async forwarded(tx: Tx, senderId: number, messageId: number): Promise<Content> {
    const [original] = await tx.query<MessageRow>(
      `${MESSAGE_SELECT}
        WHERE msg.id = $1 AND msg.deleted_at IS NULL AND (msg.expires_at IS NULL OR msg.expires_at > now())
          AND EXISTS (SELECT 1 FROM chat_members cm WHERE cm.chat_id = msg.chat_id AND cm.user_id = $2)`,
      [messageId, senderId],
    );
    if (!original) throw messageNotFound();
    if (original.type === 'call') throw badRequest('A call cannot be forwarded', 'cannot_forward');
    return {
      type: original.type,
      text: original.text,
      file_path: original.file_path,
      meta: original.meta ?? {},
      reply_to_id: null,
      // A forward of a forward names the first author.
      forwarded_from_id: original.forwarded_from_id ?? original.sender_id,
    };
  }

  private async findByClientId(senderId: number, clientId: string): Promise<MessageView | undefined> {
    const [row] = await this.services.db.query<MessageRow>(`${MESSAGE_SELECT} WHERE msg.sender_id = $1 AND msg.client_id = $2`, [
      senderId,
      clientId,
    ]);
    return row ? toMessage(row) : undefined;
  }
}
