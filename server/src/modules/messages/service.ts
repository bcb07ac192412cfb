import type { Services } from '../../services.js';
import { forbidden, notFound } from '../../http/errors.js';
import { loadActor, usesAdminPower } from '../users/actor.js';
import { lockChat, memberIds } from '../chats/repository.js';
import { deleteMessages } from './deletion.js';
import type { SendInput, SendResult } from './send-input.js';

export { TEXT_MAX, type SendInput, type SendResult } from './send-input.js';

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
}
