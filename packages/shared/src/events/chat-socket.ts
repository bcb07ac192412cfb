import { config } from '../config';
import { ApiError } from '../api/errors';
import { checkChatFrame, checkSentChatFrame } from '../api/contract-check';
import { Backoff } from './backoff';
import type { ChatClientFrame, OutgoingMessage, TypingFrame } from '@messenger/protocol';
import type { Message } from '../model/types';

/** One message to send, or a forward (docs/protocol.md, chat socket): the wire contract's `send` frame. */
export type { OutgoingMessage } from '@messenger/protocol';

/** A hang-up waiting for the server's answer. */
interface PendingHang {
  /** The call meant, when known: a repeat that reaches the server after it ended ends nothing. */
  callId: number | undefined;
  done: Promise<void>;
  resolve: () => void;
  reject: (error: ApiError) => void;
  /** Sent on the current socket. */
  sent: boolean;
  timer: ReturnType<typeof setTimeout>;
}

interface Pending {
  frame: OutgoingMessage;
  resolve: (message: Message) => void;
  reject: (error: ApiError) => void;
  /** Sent on the current socket and not answered yet. */
  inFlight: boolean;
  /** Written to a socket at least once: the server may have it, even if no answer came. */
  written: boolean;
  onWritten: (() => void) | undefined;
}

/** The code a send rejects with when it was cancelled before it ever left (`cancel`). */
export const SEND_CANCELLED = 'cancelled';

export interface ChatSocketOptions {
  url: (token: string) => string;
  /** An access token; `renew` asks for a new one even if the current one has not expired (sessions ended). */
  getToken: (renew?: boolean) => Promise<string>;
  createSocket?: (url: string) => WebSocket;
}

const TOKEN_EXPIRED = 4001;
/** The server ended this person's sessions (blocked, deleted, role changed): a refresh says whether they go on. */
const SESSION_ENDED = 4003;

/** Sends one frame; in development builds and tests it must be what the contract lets a client send. */
function write(socket: WebSocket, frame: ChatClientFrame): void {
  if (process.env.NODE_ENV !== 'production') checkSentChatFrame(frame);
  socket.send(JSON.stringify(frame));
}

/** "I am typing in this chat" (docs/protocol.md): the contract's typing frame. */
export type TypingSignal = TypingFrame;

/**
 * The chat socket: opened on first use, frames queued until it is open (spec §4). Each send resolves with the
 * stored message once the server acknowledges it — after its commit. Unacknowledged sends are re-sent, in the
 * order they were made, every time the socket (re)opens, however long the network is away; the client id makes
 * repeats harmless. At most `sendWindow` sends wait for their answer at once (a long outbox goes out as answers
 * come back, not all at once). When the server says a send came too fast (429 `rate_limited`), it and everything
 * after it wait the time the server names and go again in order. A socket that stays silent past the
 * acknowledgement timeout is assumed dead and replaced. Only a refusal by the server rejects a send.
 */
export class ChatSocket {
  private socket: WebSocket | null = null;
  private opening = false;
  private readonly pending = new Map<string, Pending>();
  /** Hang-ups waiting for `hung` (or a refusal), by chat id. */
  private readonly hangs = new Map<number, PendingHang>();
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private ackTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly backoff = new Backoff();
  private closed = false;
  /** The latest live signal asked for while the socket was not open, and when: sent if it opens soon after. */
  private waitingSignal: { frame: TypingSignal; at: number } | null = null;
  /** While set, the server asked us to slow down: nothing is sent until it fires. */
  private rateTimer: ReturnType<typeof setTimeout> | null = null;
  /** Counts close(): an opening begun before the latest one is given up. */
  private closings = 0;

  constructor(private readonly options: ChatSocketOptions) {
    if (typeof window !== 'undefined') window.addEventListener('online', () => this.reconnectNow());
  }

  /** Sends a message; `onWritten` is told the first time its frame goes out (from then on it may be stored). */
  send(frame: OutgoingMessage, onWritten?: () => void): Promise<Message> {
    this.closed = false;
    return new Promise<Message>((resolve, reject) => {
      this.pending.set(frame.client_id, { frame, resolve, reject, inFlight: false, written: false, onWritten });
      if (this.socket?.readyState === WebSocket.OPEN) this.pump();
      else void this.open();
    });
  }

  /**
   * A live signal ("I am typing in this chat"): sent now when the socket is open, else when it opens. It has no
   * answer and is never sent again — a lost one is fine, a late one would be wrong.
   */
  signal(frame: TypingSignal): void {
    this.closed = false;
    if (this.socket?.readyState === WebSocket.OPEN) {
      write(this.socket, frame);
      return;
    }
    this.waitingSignal = { frame, at: Date.now() };
    void this.open();
  }

  /**
   * Spec §7's hang-up, `{type: 'hang', text: chat_id}`: a private call ends for both, in a group only I leave.
   * Resolves when the server answers `hung`; rejects on its refusal, or when no answer comes within
   * `hangAnswerMs`. Sent again if the socket has to reopen first — with `callId`, so that a repeat of a hang-up the
   * server already did ends nothing else; a second hang-up of the same chat shares the first.
   */
  hang(chatId: number, callId?: number): Promise<void> {
    this.closed = false;
    const waiting = this.hangs.get(chatId);
    if (waiting) {
      // A hang-up of a newer call of the same chat: the frame names that one from now on, and goes again.
      if (callId !== undefined && waiting.callId !== callId) {
        waiting.callId = callId;
        waiting.sent = false;
        if (this.socket?.readyState === WebSocket.OPEN) this.sendHangs();
        else void this.open();
      }
      return waiting.done;
    }
    let resolve!: () => void;
    let reject!: (error: ApiError) => void;
    const done = new Promise<void>((ok, fail) => {
      resolve = ok;
      reject = fail;
    });
    const timer = setTimeout(() => this.settleHang(chatId, new ApiError(0, 'network', 'No answer to the hang-up')), config.hangAnswerMs);
    this.hangs.set(chatId, { callId, done, resolve, reject, sent: false, timer });
    if (this.socket?.readyState === WebSocket.OPEN) this.sendHangs();
    else void this.open();
    return done;
  }

  /** Whether a send is still waiting for its acknowledgement. */
  isPending(clientId: string): boolean {
    return this.pending.has(clientId);
  }

  /**
   * Takes back a send that never left this tab (its promise rejects with `SEND_CANCELLED`); true when it is gone
   * or was never here. False once its frame was written: the server may have stored it, so it is not taken back.
   */
  cancel(clientId: string): boolean {
    const pending = this.pending.get(clientId);
    if (!pending) return true;
    if (pending.written) return false;
    this.pending.delete(clientId);
    pending.reject(new ApiError(0, SEND_CANCELLED, 'The message was discarded before it was sent'));
    return true;
  }

  close(): void {
    this.closed = true;
    this.closings += 1;
    this.clearTimers();
    if (this.rateTimer) clearTimeout(this.rateTimer);
    this.rateTimer = null;
    this.pending.clear();
    for (const chatId of [...this.hangs.keys()]) this.settleHang(chatId, new ApiError(0, 'closed', 'The chat socket was closed'));
    this.waitingSignal = null;
    const socket = this.socket;
    this.socket = null;
    socket?.close(config.socketNormalCloseCode, config.socketManualCloseReason);
  }

  private reconnectNow(): void {
    if (this.closed || !this.waitsForServer() || this.socket) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    void this.open();
  }

  private async open(renewToken = false): Promise<void> {
    if (this.opening || this.closed || this.socket) return;
    this.opening = true;
    const closings = this.closings;
    let token: string;
    try {
      token = await this.options.getToken(renewToken);
    } catch {
      this.opening = false;
      if (closings === this.closings) this.scheduleRetry();
      else if (!this.closed) void this.open();
      return;
    }
    // Closed while the token came (a sign-out): that token is not used, even if the socket is wanted again since
    // (by the next session, perhaps someone else's) — that one opens with a token of its own.
    if (closings !== this.closings) {
      this.opening = false;
      if (!this.closed) void this.open();
      return;
    }
    const socket = (this.options.createSocket ?? ((url) => new WebSocket(url)))(this.options.url(token));
    this.socket = socket;
    this.opening = false;
    socket.onopen = () => {
      this.backoff.reset();
      const signal = this.waitingSignal;
      this.waitingSignal = null;
      // A signal says "now": one that waited for a slow connection would announce typing that may be over.
      if (signal && Date.now() - signal.at < config.typingSignalEveryMs) write(socket, signal.frame);
      this.sendHangs();
      this.pump();
    };
    socket.onmessage = (message) => this.handleFrame(String(message.data));
    socket.onclose = (close) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.clearAckTimer();
      for (const pending of this.pending.values()) pending.inFlight = false;
      for (const hang of this.hangs.values()) hang.sent = false;
      if (this.closed || !this.waitsForServer()) return;
      // A new token, not one this browser thinks still good: the server said it is not.
      if (close.code === TOKEN_EXPIRED) void this.open(true);
      else if (close.code === SESSION_ENDED) void this.open(true); // a refused refresh ends the session
      else this.scheduleRetry();
    };
  }

  /** Sends what waits, oldest first, while the window has room (and the server has not asked us to wait). */
  private pump(): void {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN || this.rateTimer) return;
    let inFlight = 0;
    for (const pending of this.pending.values()) if (pending.inFlight) inFlight += 1;
    for (const pending of this.pending.values()) {
      if (inFlight >= config.sendWindow) break;
      if (pending.inFlight) continue;
      pending.inFlight = true;
      inFlight += 1;
      write(socket, { type: 'send', ...pending.frame });
      if (!pending.written) {
        pending.written = true;
        pending.onWritten?.();
      }
      this.ackTimer ??= setTimeout(() => this.ackOverdue(), config.sendAckTimeoutMs);
    }
  }

  /** The server asked us to slow down: everything unanswered goes again, in order, after `delayMs`. */
  private waitForRateLimit(delayMs: number): void {
    for (const pending of this.pending.values()) pending.inFlight = false;
    if (this.rateTimer) return;
    this.rateTimer = setTimeout(() => {
      this.rateTimer = null;
      this.pump();
    }, delayMs);
  }

  /** No answer for too long: the connection is probably dead without knowing it. Replace it. */
  private ackOverdue(): void {
    this.ackTimer = null;
    if (this.pending.size === 0) return;
    const socket = this.socket;
    this.socket = null;
    // This socket's close is not seen (it is no longer the current one): what it carried goes again on the next.
    for (const pending of this.pending.values()) pending.inFlight = false;
    for (const hang of this.hangs.values()) hang.sent = false;
    socket?.close(config.socketNormalCloseCode, 'no acknowledgement');
    this.scheduleRetry();
  }

  private handleFrame(raw: string): void {
    let frame: { type?: string; client_id?: string; chat_id?: number; message?: unknown; error?: string; status?: number; retry_after_ms?: number };
    try {
      frame = JSON.parse(raw);
    } catch {
      return;
    }
    // Development builds and tests only (production builds drop it, with the schemas): see api/contract-check.ts.
    if (process.env.NODE_ENV !== 'production') checkChatFrame(frame);
    // A hang-up's answer: `hung`, or an error naming the chat and no message (docs/protocol.md).
    if (typeof frame.chat_id === 'number' && (frame.type === 'hung' || (frame.type === 'error' && frame.client_id === undefined))) {
      const refusal = frame.type === 'error' ? new ApiError(frame.status ?? 400, frame.error ?? 'hang_failed', String(frame.message ?? 'The hang-up was refused')) : null;
      this.settleHang(frame.chat_id, refusal);
      return;
    }
    const pending = frame.client_id ? this.pending.get(frame.client_id) : undefined;
    if (!pending) return;
    this.clearAckTimer();
    if (frame.type === 'error' && frame.status === 429) {
      // Not a refusal of the message: it goes again once the server's wait is over (plus a little jitter). The
      // sends behind it are answered the same way; once we are waiting, those answers change nothing.
      if (!pending.inFlight) return;
      const wait = typeof frame.retry_after_ms === 'number' && frame.retry_after_ms > 0 ? frame.retry_after_ms : 1_000;
      this.waitForRateLimit(wait + Math.random() * 100);
      return;
    }
    this.pending.delete(frame.client_id!);
    if ([...this.pending.values()].some((other) => other.inFlight)) this.ackTimer = setTimeout(() => this.ackOverdue(), config.sendAckTimeoutMs);
    if (frame.type === 'ack' && frame.message) pending.resolve(frame.message as Message);
    else pending.reject(new ApiError(frame.status ?? 400, frame.error ?? 'send_failed', String(frame.message ?? 'The message was refused')));
    this.pump();
  }

  /** Whether anything sent or to send waits for the server's answer (then a lost socket is replaced). */
  private waitsForServer(): boolean {
    return this.pending.size > 0 || this.hangs.size > 0;
  }

  private sendHangs(): void {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    for (const [chatId, hang] of this.hangs) {
      if (hang.sent) continue;
      hang.sent = true;
      write(socket, hang.callId === undefined ? { type: 'hang', text: String(chatId) } : { type: 'hang', text: String(chatId), call_id: hang.callId });
    }
  }

  private settleHang(chatId: number, error: ApiError | null): void {
    const hang = this.hangs.get(chatId);
    if (!hang) return;
    this.hangs.delete(chatId);
    clearTimeout(hang.timer);
    if (error) hang.reject(error);
    else hang.resolve();
  }

  private scheduleRetry(): void {
    if (this.retryTimer || this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.open();
    }, this.backoff.next());
  }

  private clearAckTimer(): void {
    if (this.ackTimer) clearTimeout(this.ackTimer);
    this.ackTimer = null;
  }

  private clearTimers(): void {
    this.clearAckTimer();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }
}
