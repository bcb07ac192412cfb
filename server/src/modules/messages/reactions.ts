import type { Services } from '../../services.js';
import { forbidden } from '../../http/errors.js';
import { REACTIONS_OF_MESSAGE, type Reaction } from '../chats/model.js';
import { lockMessageForChange } from './service.js';

/** The reactions a person can give: the contract's. */
export { REACTION_EMOJI } from '@messenger/protocol';

/**
 * Reactions: one per person per message — a new one replaces theirs, and it can be taken back. Any member who may
 * send to the chat may react, to any message there but a call's; every member (the reactor's other tabs too)
 * gets `message-reactions` with the message's reactions as they now are, so a replayed event is harmless.
 */
export class Reactions {
  constructor(private readonly services: Services) {}

  /** `emoji` null takes the caller's reaction back. */
  async set(userId: number, messageId: number, emoji: string | null): Promise<{ chat_id: number; message_id: number; reactions: Reaction[] }> {
    return this.services.db.transaction(async (tx) => {
      const { chat, message, members } = await lockMessageForChange<{ type: string }>(tx, userId, messageId, 'type');
      if (message.type === 'call') throw forbidden('A call cannot be reacted to', 'cannot_react');
      const changed =
        emoji === null
          ? await tx.query('DELETE FROM message_reactions WHERE message_id = $1 AND user_id = $2 RETURNING 1', [messageId, userId])
          : await tx.query(
              `INSERT INTO message_reactions (message_id, user_id, emoji) VALUES ($1, $2, $3)
               ON CONFLICT (message_id, user_id) DO UPDATE SET emoji = excluded.emoji, created_at = now()
                 WHERE message_reactions.emoji <> excluded.emoji
               RETURNING 1`,
              [messageId, userId, emoji],
            );
      const [row] = await tx.query<{ reactions: Reaction[] | null }>(`SELECT ${REACTIONS_OF_MESSAGE} AS reactions FROM messages msg WHERE msg.id = $1`, [
        messageId,
      ]);
      const info = { chat_id: chat.id, message_id: messageId, reactions: row?.reactions ?? [] };
      // Nothing changed (the same emoji again, or no reaction to take back): nobody is told.
      if (changed.length > 0) await this.services.events.append(tx, members, 'message-reactions', info);
      return info;
    });
  }
}
