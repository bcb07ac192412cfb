import { config } from '../config';

/**
 * How long a socket waits before its next connection attempt: doubling from `reconnectBaseMs` up to
 * `reconnectMaxMs`, each wait drawn from the upper half of its step (jitter), so that a server coming back is not
 * met by every client at the same instant. Both sockets (the event flow and the chat socket) use one.
 */
export class Backoff {
  private attempt = 0;

  constructor(
    private readonly baseMs: number = config.reconnectBaseMs,
    private readonly maxMs: number = config.reconnectMaxMs,
    private readonly random: () => number = Math.random,
  ) {}

  /** The wait before the next attempt; each call counts one more failed attempt. */
  next(): number {
    const ceiling = Math.min(this.maxMs, this.baseMs * 2 ** this.attempt);
    this.attempt += 1;
    return Math.round(ceiling / 2 + this.random() * (ceiling / 2));
  }

  /** A connection worked: the next failure waits the shortest again. */
  reset(): void {
    this.attempt = 0;
  }
}
