import type { Db } from '../../db/index.js';
import type { EventBus } from '../../events/bus.js';
import { ServerStrings, forbidden } from '../../http/errors.js';
import { chatUnavailable } from '../chats/repository.js';

/** A person's typing signals for one chat go out at most this often (the client sends one every 3 s while typing). */
export const TYPING_SIGNAL_INTERVAL_MS = 2_000;
/** Past this many remembered (person, chat) pairs, the ones older than the interval are forgotten. */
const REMEMBERED_PAIRS = 10_000;

/**
 * "Anna is typing…": a signal to the chat's other members, never stored in the event log (a lost one is fine and a
 * replayed one would be wrong). Only a member who may send to the chat can signal it; the others get the same
 * answers as a send would give them. docs/protocol.md, "typing".
 */
export class TypingSignals {
  private readonly lastSent = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly bus: EventBus,
  ) {}

  async typing(userId: number, chatId: number): Promise<void> {
    const key = `${userId}:${chatId}`;
    const now = Date.now();
    if (now - (this.lastSent.get(key) ?? -Infinity) < TYPING_SIGNAL_INTERVAL_MS) return;
    const [row] = await this.db.query<{ name: string; username: string | null; blocked: boolean; is_muted: boolean; deleted: boolean; members: number[] | null }>(
      `SELECT name, username, blocked, is_muted, deleted,
              (SELECT array_agg(m.user_id ORDER BY m.user_id) FROM chat_members m WHERE m.chat_id = $2) AS members
         FROM users WHERE id = $1`,
      [userId, chatId],
    );
    if (!row || row.deleted) throw forbidden(ServerStrings.noSuchUser, 'no_such_user');
    if (row.blocked) throw forbidden(ServerStrings.banned, 'banned');
    if (row.is_muted) throw forbidden(ServerStrings.muted, 'muted');
    const members = (row.members ?? []).map(Number);
    if (!members.includes(userId)) throw chatUnavailable();
    this.remember(key, now);
    const signal = { event_type: 'typing', additional_info: { chat_id: chatId, user: { id: userId, name: row.name, username: row.username } } };
    for (const member of members) if (member !== userId) this.bus.signal(member, signal);
  }

  private remember(key: string, now: number): void {
    if (this.lastSent.size >= REMEMBERED_PAIRS) {
      for (const [pair, at] of this.lastSent) if (now - at >= TYPING_SIGNAL_INTERVAL_MS) this.lastSent.delete(pair);
    }
    this.lastSent.set(key, now);
  }
}
