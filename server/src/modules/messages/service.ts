import type { Services } from '../../services.js';
import { badRequest, forbidden, notFound } from '../../http/errors.js';
import { loadActor, usesAdminPower } from '../users/actor.js';
import { findMessageView, lockChat, memberIds, type LockedChat } from '../chats/repository.js';
import type { Tx } from '../../db/index.js';
import type { MessageView } from '../chats/model.js';
import { characterCount } from '../../http/text.js';
import { checkMaySend } from './writer.js';
import { TEXT_MAX } from './send-input.js';
import { deleteMessages } from './deletion.js';
import { toPublic, userColumns, type PublicUserView, type UserRow } from '../users/model.js';
import type { SendInput, SendResult } from './send-input.js';

export { TEXT_MAX, type SendInput, type SendResult } from './send-input.js';

/** How long after sending its sender may edit a message (issue 14: 48 hours, as the client shows it). */
export const EDIT_WINDOW_HOURS = 48;

const messageNotFound = () => notFound('Message not found', 'message_not_found');

export class MessagesService {
  constructor(private readonly services: Services) {}

  /**
   * Stores a message and, in the same transaction, tells every member through their event log. Resolves only
   * after COMMIT, so an acknowledgement means the message is durable. Idempotent per (sender, client id): a
   * retry gets the stored message back (even if it would now be refused) and nobody is told twice. Sends are
   * written in batches (`MessageWriter`): each answers as if it had been written alone.
   */
  send(senderId: number, input: SendInput): Promise<SendResult> {
    return this.services.messageWriter.submit(senderId, input);
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

  /**
   * Read receipts: the members who have read one of the caller's messages (their read mark is at or past it),
   * for the message's sender only. Anyone else in the chat gets 403; someone who cannot see it, 404.
   */
  async readers(userId: number, messageId: number): Promise<{ readers: PublicUserView[] }> {
    const [message] = await this.services.db.query<{ chat_id: number; sender_id: number; member: boolean }>(
      `SELECT x.chat_id, x.sender_id,
              EXISTS (SELECT 1 FROM chat_members m WHERE m.chat_id = x.chat_id AND m.user_id = $2) AS member
         FROM messages x WHERE x.id = $1 AND x.deleted_at IS NULL`,
      [messageId, userId],
    );
    if (!message || !message.member) throw messageNotFound();
    if (Number(message.sender_id) !== userId) throw forbidden('Only its sender can see who read a message', 'not_allowed');
    const rows = await this.services.db.query<UserRow>(
      `SELECT ${userColumns('u')} FROM chat_members m JOIN users u ON u.id = m.user_id
        WHERE m.chat_id = $1 AND m.user_id <> $2 AND m.last_read_message_id >= $3 AND m.read_from_message_id < $3
        ORDER BY u.name, u.id`,
      [message.chat_id, userId, messageId],
    );
    return { readers: rows.map((row) => toPublic(row, { showPhone: false })) };
  }

  /**
   * Edits the text of one of the caller's own text messages, within 48 hours of sending it; every member (the
   * sender's other tabs too) gets `message-edited` with the message as it now is. Search finds the new text. The
   * same text again changes nothing and tells nobody.
   */
  async edit(userId: number, messageId: number, newText: string): Promise<{ message: MessageView }> {
    const text = newText.trim();
    if (!text) throw badRequest('A message cannot be empty', 'empty_message');
    if (characterCount(text) > TEXT_MAX) throw badRequest(`A message can be at most ${TEXT_MAX} characters`, 'message_too_long');
    return this.services.db.transaction(async (tx) => {
      const { chat, message, members } = await lockMessageForChange<{ sender_id: number; type: string; text: string; forwarded: boolean; too_old: boolean }>(
        tx,
        userId,
        messageId,
        `sender_id, type, text, forwarded_from_id IS NOT NULL AS forwarded,
         created_at < now() - make_interval(hours => ${EDIT_WINDOW_HOURS}) AS too_old`,
      );
      if (Number(message.sender_id) !== userId) throw forbidden('Only its sender can edit a message', 'not_allowed');
      if (message.type !== 'text' || message.forwarded) throw badRequest('Only text messages you wrote can be edited', 'cannot_edit');
      if (message.too_old) throw forbidden(`A message can be edited for ${EDIT_WINDOW_HOURS} hours after it is sent`, 'edit_window_passed');
      if (message.text !== text) {
        await tx.query('UPDATE messages SET text = $2, edited_at = now() WHERE id = $1', [messageId, text]);
      }
      const view = (await findMessageView(tx, messageId))!;
      if (message.text !== text) {
        await this.services.events.append(tx, members, 'message-edited', { chat_id: chat.id, message_id: messageId, message: view });
      }
      return { message: view };
    });
  }
}

/**
 * The start of every change to one message by a member (an edit, a reaction): the caller may still write (not
 * deleted, banned or muted), the message's chat is locked (chats first, as every change to its messages), and the
 * message (`columns` of it) and the chat's members are read under that lock. Someone who cannot see the message —
 * gone, expired, or not in its chat — gets 404, as if it did not exist.
 */
export async function lockMessageForChange<T extends Record<string, unknown>>(
  tx: Tx,
  userId: number,
  messageId: number,
  columns: string,
): Promise<{ chat: LockedChat; message: T; members: number[] }> {
  const [sender] = await tx.query<{ deleted: boolean; blocked: boolean; is_muted: boolean }>('SELECT deleted, blocked, is_muted FROM users WHERE id = $1', [
    userId,
  ]);
  checkMaySend(sender);
  const visible = 'id = $1 AND deleted_at IS NULL AND (expires_at IS NULL OR expires_at > now())';
  const [found] = await tx.query<{ chat_id: number }>(`SELECT chat_id FROM messages WHERE ${visible}`, [messageId]);
  if (!found) throw messageNotFound();
  const chat = await lockChat(tx, found.chat_id);
  const [message] = await tx.query<T>(`SELECT ${columns} FROM messages WHERE ${visible}`, [messageId]);
  if (!chat || !message) throw messageNotFound();
  const members = await memberIds(tx, chat.id);
  if (!members.includes(userId)) throw messageNotFound();
  return { chat, message, members };
}
