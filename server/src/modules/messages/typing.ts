import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Db } from '../../db/index.js';
import type { EventBus } from '../../events/bus.js';
import type { LiveSignal } from '../../events/types.js';
import { chatUnavailable } from '../chats/repository.js';
import { checkMaySend } from './writer.js';

/** A person's typing signals for one chat go out at most this often (the client sends one every 3 s while typing). */
export const TYPING_SIGNAL_INTERVAL_MS = 2_000;
/** Typing frames one person may have looked up per second, over all chats: past it they are dropped unread. */
const LOOKUPS_PER_SECOND = 5;

/**
 * "Anna is typing…": a signal to the chat's other members, never stored in the event log (a lost one is fine and a
 * replayed one would be wrong). Only a member who may send to the chat can signal it; the others get the same
 * answers as a send would give them. docs/protocol.md, "typing".
 *
 * A frame costs one database read, so the throttle comes first and counts every frame, refused ones too: a person
 * gets one read per chat every 2 s and at most five a second in all, whatever they send.
 */
export class TypingSignals {
  // Windows that expire by themselves (no table sized in advance: a 100 000-entry LRU cost 60 ms of every start).
  private readonly perChat = new RateLimiterMemory({ keyPrefix: 'typing-chat', points: 1, duration: TYPING_SIGNAL_INTERVAL_MS / 1000 });
  private readonly lookups = new RateLimiterMemory({ keyPrefix: 'typing-lookups', points: LOOKUPS_PER_SECOND, duration: 1 });

  constructor(
    private readonly db: Db,
    private readonly bus: EventBus,
  ) {}

  async typing(userId: number, chatId: number): Promise<void> {
    const key = `${userId}:${chatId}`;
    if (!(await allowed(this.perChat, key))) return;
    if (!(await allowed(this.lookups, userId))) {
      // Dropped unread: the chat's window goes back, so the next frame for it is not held for nothing.
      await this.perChat.delete(key);
      return;
    }
    const [row] = await this.db.query<{ name: string; username: string | null; blocked: boolean; is_muted: boolean; deleted: boolean; members: number[] | null }>(
      `SELECT name, username, blocked, is_muted, deleted,
              (SELECT array_agg(m.user_id ORDER BY m.user_id) FROM chat_members m WHERE m.chat_id = $2) AS members
         FROM users WHERE id = $1`,
      [userId, chatId],
    );
    checkMaySend(row);
    const members = (row.members ?? []).map(Number);
    if (!members.includes(userId)) throw chatUnavailable();
    const signal: LiveSignal = { event_type: 'typing', additional_info: { chat_id: chatId, user: { id: userId, name: row.name, username: row.username } } };
    for (const member of members) if (member !== userId) this.bus.signal(member, signal);
  }

  /** They sent a message to the chat: their next signal there is about a new one and is not held back. */
  sent(userId: number, chatId: number): void {
    void this.perChat.delete(`${userId}:${chatId}`);
  }
}

/** Takes one point of `key`'s window; false when it has none left (the frame is dropped, not answered). */
async function allowed(limiter: RateLimiterMemory, key: string | number): Promise<boolean> {
  try {
    await limiter.consume(key);
    return true;
  } catch (refusal) {
    if (refusal instanceof RateLimiterRes) return false;
    throw refusal;
  }
}
