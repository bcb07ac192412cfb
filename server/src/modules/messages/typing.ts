import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/index.js';
import type { EventBus } from '../../events/bus.js';
import { chatUnavailable } from '../chats/repository.js';
import { checkMaySend } from './writer.js';

/** A person's typing signals for one chat go out at most this often (the client sends one every 3 s while typing). */
export const TYPING_SIGNAL_INTERVAL_MS = 2_000;
/** Typing frames one person may have looked up per second, over all chats: past it they are dropped unread. */
const LOOKUPS_PER_SECOND = 5;
/** (person, chat) pairs and people remembered at once; the oldest go first. */
const REMEMBERED = 100_000;

/**
 * "Anna is typing…": a signal to the chat's other members, never stored in the event log (a lost one is fine and a
 * replayed one would be wrong). Only a member who may send to the chat can signal it; the others get the same
 * answers as a send would give them. docs/protocol.md, "typing".
 *
 * A frame costs one database read, so the throttle comes first and counts every frame, refused ones too: a person
 * gets one read per chat every 2 s and at most five a second in all, whatever they send.
 */
export class TypingSignals {
  private readonly recent = new LRUCache<string, true>({ max: REMEMBERED, ttl: TYPING_SIGNAL_INTERVAL_MS, ttlAutopurge: false });
  private readonly lookups = new LRUCache<number, { second: number; count: number }>({ max: REMEMBERED });

  constructor(
    private readonly db: Db,
    private readonly bus: EventBus,
  ) {}

  async typing(userId: number, chatId: number): Promise<void> {
    const key = `${userId}:${chatId}`;
    if (this.recent.has(key) || !this.mayLookUp(userId)) return;
    this.recent.set(key, true);
    const [row] = await this.db.query<{ name: string; username: string | null; blocked: boolean; is_muted: boolean; deleted: boolean; members: number[] | null }>(
      `SELECT name, username, blocked, is_muted, deleted,
              (SELECT array_agg(m.user_id ORDER BY m.user_id) FROM chat_members m WHERE m.chat_id = $2) AS members
         FROM users WHERE id = $1`,
      [userId, chatId],
    );
    checkMaySend(row);
    const members = (row.members ?? []).map(Number);
    if (!members.includes(userId)) throw chatUnavailable();
    const signal = { event_type: 'typing', additional_info: { chat_id: chatId, user: { id: userId, name: row.name, username: row.username } } };
    for (const member of members) if (member !== userId) this.bus.signal(member, signal);
  }

  /** They sent a message to the chat: their next signal there is about a new one and is not held back. */
  sent(userId: number, chatId: number): void {
    this.recent.delete(`${userId}:${chatId}`);
  }

  private mayLookUp(userId: number): boolean {
    const second = Math.floor(Date.now() / 1000);
    const entry = this.lookups.get(userId);
    if (!entry || entry.second !== second) {
      this.lookups.set(userId, { second, count: 1 });
      return true;
    }
    entry.count += 1;
    return entry.count <= LOOKUPS_PER_SECOND;
  }
}
