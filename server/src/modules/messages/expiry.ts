import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.js';
import type { EventLog } from '../../events/log.js';
import { deleteMessages } from './deletion.js';

/** Chats looked at per round, and expired messages deleted per chat per transaction. */
const CHATS_PER_ROUND = 100;
const MESSAGES_PER_CHAT = 500;

/**
 * Deletes expired messages (auto-delete, `PUT /chat/interval`) through the same path as `DELETE /chat/message`:
 * events, unread counts and the chat's last message all follow. It sweeps once when the app starts — catching
 * whatever expired while the server was down — then every `intervalMs`.
 *
 * Safe with several server processes on one PostgreSQL: each chat is handled in its own transaction that first
 * takes the chat's row lock with `FOR UPDATE SKIP LOCKED`, so two sweepers never handle the same chat at once and
 * neither waits for the other (a chat skipped now is taken on the next round).
 */
export class ExpirySweeper {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> = Promise.resolve(0);
  private active = false;

  constructor(
    private readonly db: Db,
    private readonly events: EventLog,
    private readonly log: FastifyBaseLogger,
    private readonly intervalMs: number,
  ) {}

  /** Starts sweeping: at once, then every interval (none when the interval is 0: tests sweep on demand). */
  start(): void {
    if (this.active) return;
    this.active = true;
    this.schedule(0);
  }

  /** Stops the timer and waits for a sweep in progress, so the database can be closed after it. */
  async stop(): Promise<void> {
    this.active = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running.catch(() => undefined);
  }

  /**
   * One full sweep: every message whose time has passed is deleted when it resolves (except in chats another
   * process is sweeping right now). Sweeps never overlap within a process. Resolves with the number deleted.
   */
  sweep(): Promise<number> {
    const next = this.running.catch(() => 0).then(() => this.sweepAll());
    this.running = next;
    return next;
  }

  private schedule(delayMs: number): void {
    if (!this.active) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.sweep()
        .catch((error) => this.log.error({ err: error }, 'expired messages sweep failed'))
        .finally(() => {
          if (this.intervalMs > 0) this.schedule(this.intervalMs);
        });
    }, delayMs);
    this.timer.unref();
  }

  private async sweepAll(): Promise<number> {
    let total = 0;
    for (;;) {
      const candidates = await this.db.query<{ chat_id: number }>(
        `SELECT DISTINCT chat_id FROM messages
          WHERE deleted_at IS NULL AND expires_at IS NOT NULL AND expires_at <= now()
          LIMIT $1`,
        [CHATS_PER_ROUND],
      );
      if (candidates.length === 0) return total;
      let progress = 0;
      let skipped = 0;
      for (const { chat_id: chatId } of candidates) {
        const deleted = await this.db.transaction(async (tx) => {
          const locked = await tx.query('SELECT id FROM chats WHERE id = $1 FOR UPDATE SKIP LOCKED', [chatId]);
          if (locked.length === 0) return null; // another process (or a send) holds it: next round
          const expired = await tx.query<{ id: number }>(
            `SELECT id FROM messages
              WHERE chat_id = $1 AND deleted_at IS NULL AND expires_at IS NOT NULL AND expires_at <= now()
              ORDER BY id LIMIT $2`,
            [chatId, MESSAGES_PER_CHAT],
          );
          return (await deleteMessages(tx, this.events, chatId, expired.map((row) => row.id))).length;
        });
        if (deleted === null) skipped += 1;
        else progress += deleted;
      }
      total += progress;
      // Nothing left that this process can take now: what remains is locked elsewhere, and comes next round.
      if (progress === 0 || skipped === candidates.length) return total;
    }
  }
}
