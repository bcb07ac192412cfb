import { RateLimited } from '../../http/rate-limits.js';

/**
 * Frames a socket may have waiting to be handled. Our client keeps at most `sendWindow` (16) sends unanswered; a
 * peer that piles up more is not waiting for answers: it is flooding.
 */
const MAX_QUEUED_FRAMES = 128;
/** Sends refused while the socket should be waiting; our client has at most a window's worth in flight then. */
const MAX_REFUSED_WHILE_WAITING = 32;

/**
 * Flood control of one chat socket, besides the person's allowance (`RateLimits`, shared by all their sockets):
 *
 * - After a send is refused for going too fast, every later send on this socket is refused too until that one comes
 *   again, so a message never overtakes an earlier one that is waiting out the limit.
 * - A socket that piles up frames without waiting for answers, or keeps sending while told to wait, is cut off:
 *   answering a flood one frame at a time would still cost everyone else the server's time.
 */
export class SocketPacing {
  private queued = 0;
  private waitingFor: string | null = null;
  private waitUntil = 0;
  private refusedWhileWaiting = 0;
  private cut = false;

  /** Whether the socket was cut off: its frames are ignored from then on. */
  get cutOff(): boolean {
    return this.cut;
  }

  /** A frame arrived: false when the socket must be cut off. */
  admit(): boolean {
    if (this.queued >= MAX_QUEUED_FRAMES) this.cut = true;
    if (this.cut) return false;
    this.queued += 1;
    return true;
  }

  /** A frame has been handled. */
  handled(): void {
    this.queued -= 1;
  }

  /** Before a send takes from the allowance: throws when it would overtake a send that is waiting. */
  checkOrder(clientId: string): void {
    if (this.waitingFor === null || clientId === this.waitingFor) {
      this.waitingFor = null;
      this.refusedWhileWaiting = 0;
      return;
    }
    throw new RateLimited('Your earlier message is waiting out the rate limit; send it first', Math.max(1, this.waitUntil - Date.now()));
  }

  /** A send was refused as too fast: false when the socket keeps sending while told to wait (cut it off). */
  refused(clientId: string, refusal: RateLimited): boolean {
    if (this.waitingFor === null) {
      this.waitingFor = clientId;
      this.waitUntil = Date.now() + refusal.retryAfterMs;
      return true;
    }
    this.refusedWhileWaiting += 1;
    if (this.refusedWhileWaiting > MAX_REFUSED_WHILE_WAITING) this.cut = true;
    return !this.cut;
  }
}
