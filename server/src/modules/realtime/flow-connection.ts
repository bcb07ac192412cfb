import type { EventLog } from '../../events/log.js';
import type { EventBus } from '../../events/bus.js';
import type { FlowEvent } from '../../events/types.js';

/** Events sent per database read while catching a client up. */
const REPLAY_PAGE = 500;

/**
 * One `/user/flow` connection. It hands the client its event log as one gapless, duplicate-free sequence:
 *
 * 1. subscribe to live events first, buffering them;
 * 2. replay the log after `since` from the database, page by page (or say `resync` if it cannot);
 * 3. send `ready` with the position reached, then the buffer, dropping what the replay already covered.
 *
 * Live events that arrive out of order (two transactions committing close together) or after a gap are filled
 * from the database before being sent, so the client sees seq N+1 after N, always. Everything is sent through one
 * promise chain so that order holds even while a database read is in flight.
 */
export class FlowConnection {
  private lastSent = 0;
  private buffer: FlowEvent[] | null = [];
  private chain: Promise<void> = Promise.resolve();
  private unsubscribe: (() => void) | null = null;
  private closed = false;
  /** A catch-up was asked for while the connection was still starting. */
  private catchUpAfterStart = false;

  constructor(
    private readonly userId: number,
    private readonly log: EventLog,
    private readonly bus: EventBus,
    private readonly link: { send(frame: unknown): boolean; sendText(text: string): boolean },
    private readonly onError: (error: unknown) => void,
  ) {}

  /** `since`: the last seq the client applied, none on a first connection, or `unknown` (it must resync). */
  async start(since: number | 'unknown' | undefined): Promise<void> {
    this.unsubscribe = this.bus.subscribe(
      this.userId,
      (event) => {
        if (this.buffer) this.buffer.push(event);
        else this.enqueue(() => this.deliver(event));
      },
      // Rings between nodes may have been lost: whatever the log holds past what was sent goes out now (once
      // started: a socket still replaying at connection reads it again right after `ready`).
      () => {
        if (this.buffer) {
          this.catchUpAfterStart = true;
          return Promise.resolve();
        }
        return this.catchUp();
      },
      // A signal (someone typing) is about now: sent at once, dropped until `ready` (while the subscription is
      // confirmed and the replay is still going).
      (signal) => {
        if (!this.buffer && !this.closed) this.link.send(signal);
      },
    );
    try {
      // Rings from other nodes reach this one before the log is read, so none falls between the two.
      await this.bus.heard(this.userId);
      if (this.closed) return;
      if (since === undefined) {
        this.lastSent = await this.log.head(this.userId);
      } else if (since === 'unknown') {
        this.resync(await this.log.head(this.userId));
      } else {
        await this.replay(since);
      }
      if (this.closed) return;
      this.link.send({ event_type: 'ready', additional_info: { seq: this.lastSent } });
      const buffered = this.buffer ?? [];
      this.buffer = null;
      for (const event of buffered) this.enqueue(() => this.deliver(event));
      if (this.catchUpAfterStart) void this.catchUp();
    } catch (error) {
      this.onError(error);
    }
  }

  /** Reads, in this connection's order, what the log holds past what was sent. */
  private catchUp(): Promise<void> {
    this.enqueue(() => (this.closed ? Promise.resolve() : this.replay(this.lastSent)));
    return this.chain;
  }

  close(): void {
    this.closed = true;
    this.unsubscribe?.();
  }

  private async replay(since: number): Promise<void> {
    let after = since;
    for (;;) {
      const result = await this.log.readAfter(this.userId, after, REPLAY_PAGE);
      if (result.kind === 'resync') {
        // The client's position is unknown or forgotten: it must reload its state, then follow from head.
        this.resync(result.head);
        return;
      }
      for (const event of result.events) this.sendEvent(event);
      this.lastSent = after = result.events.at(-1)?.seq ?? after;
      // A read may bring fewer than asked (its statement was shared): on until the head it saw.
      if (after >= result.head || result.events.length === 0 || this.closed) return;
    }
  }

  private async deliver(event: FlowEvent): Promise<void> {
    if (this.closed || event.seq <= this.lastSent) return;
    // Earlier events are committed (seq is taken under the user's row lock) but not yet rung: read them (a read
    // may bring fewer than asked).
    while (event.seq > this.lastSent + 1 && !this.closed) {
      const result = await this.log.readAfter(this.userId, this.lastSent, event.seq - this.lastSent - 1);
      if (result.kind === 'resync') {
        this.resync(result.head);
        return;
      }
      if (result.events.length === 0) break;
      for (const missed of result.events) if (missed.seq < event.seq) this.sendEvent(missed);
    }
    this.sendEvent(event);
  }

  private resync(head: number): void {
    this.lastSent = head;
    this.link.send({ event_type: 'resync', additional_info: { seq: head } });
  }

  private sendEvent(event: FlowEvent): void {
    if (event.seq <= this.lastSent) return;
    if (event.infoJson === undefined) {
      this.link.send({ seq: event.seq, event_type: event.event_type, additional_info: event.additional_info });
    } else {
      // One payload shared by every recipient: only the envelope is written per socket.
      this.link.sendText(`{"seq":${event.seq},"event_type":${JSON.stringify(event.event_type)},"additional_info":${event.infoJson}}`);
    }
    this.lastSent = event.seq;
  }

  private enqueue(task: () => Promise<void>): void {
    this.chain = this.chain.then(task).catch(this.onError);
  }
}
