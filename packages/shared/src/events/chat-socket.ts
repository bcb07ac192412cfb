import { config } from '../config';
import { ApiError } from '../api/errors';
import type { Message, MessageMeta, MessageType } from '../model/types';

/** One message to send (docs/protocol.md, chat socket). */
export interface OutgoingMessage {
  client_id: string;
  chat_id: number;
  message_type?: Exclude<MessageType, 'call'>;
  text?: string;
  file_path?: string;
  meta?: MessageMeta;
  reply_to_id?: number;
  forward_message_id?: number;
}

interface Pending {
  frame: OutgoingMessage;
  resolve: (message: Message) => void;
  reject: (error: ApiError) => void;
}

export interface ChatSocketOptions {
  url: (token: string) => string;
  getToken: () => Promise<string>;
  createSocket?: (url: string) => WebSocket;
}

const TOKEN_EXPIRED = 4001;

/**
 * The chat socket: opened on first use, frames queued until it is open (spec §4). Each send resolves with the
 * stored message once the server acknowledges it — after its commit. Unacknowledged sends are re-sent, in the
 * order they were made, every time the socket (re)opens, however long the network is away; the client id makes
 * repeats harmless. A socket that stays silent past the acknowledgement timeout is assumed dead and replaced.
 * Only a refusal by the server (`error` with a status) rejects a send.
 */
export class ChatSocket {
  private socket: WebSocket | null = null;
  private opening = false;
  private readonly pending = new Map<string, Pending>();
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private ackTimer: ReturnType<typeof setTimeout> | null = null;
  private attempt = 0;
  private closed = false;

  constructor(private readonly options: ChatSocketOptions) {
    if (typeof window !== 'undefined') window.addEventListener('online', () => this.reconnectNow());
  }

  send(frame: OutgoingMessage): Promise<Message> {
    this.closed = false;
    return new Promise<Message>((resolve, reject) => {
      this.pending.set(frame.client_id, { frame, resolve, reject });
      if (this.socket?.readyState === WebSocket.OPEN) this.transmit(frame);
      else void this.open();
    });
  }

  /** Whether a send is still waiting for its acknowledgement. */
  isPending(clientId: string): boolean {
    return this.pending.has(clientId);
  }

  close(): void {
    this.closed = true;
    this.clearTimers();
    this.pending.clear();
    const socket = this.socket;
    this.socket = null;
    socket?.close(config.socketNormalCloseCode, config.socketManualCloseReason);
  }

  private reconnectNow(): void {
    if (this.closed || this.pending.size === 0 || this.socket) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    void this.open();
  }

  private async open(): Promise<void> {
    if (this.opening || this.closed || this.socket) return;
    this.opening = true;
    let token: string;
    try {
      token = await this.options.getToken();
    } catch {
      this.opening = false;
      this.scheduleRetry();
      return;
    }
    const socket = (this.options.createSocket ?? ((url) => new WebSocket(url)))(this.options.url(token));
    this.socket = socket;
    this.opening = false;
    socket.onopen = () => {
      this.attempt = 0;
      for (const pending of this.pending.values()) this.transmit(pending.frame);
    };
    socket.onmessage = (message) => this.handleFrame(String(message.data));
    socket.onclose = (close) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.clearAckTimer();
      if (this.closed || this.pending.size === 0) return;
      if (close.code === TOKEN_EXPIRED) void this.open();
      else this.scheduleRetry();
    };
  }

  private transmit(frame: OutgoingMessage): void {
    this.socket?.send(JSON.stringify({ type: 'send', ...frame }));
    this.ackTimer ??= setTimeout(() => this.ackOverdue(), config.sendAckTimeoutMs);
  }

  /** No answer for too long: the connection is probably dead without knowing it. Replace it. */
  private ackOverdue(): void {
    this.ackTimer = null;
    if (this.pending.size === 0) return;
    const socket = this.socket;
    this.socket = null;
    socket?.close(config.socketNormalCloseCode, 'no acknowledgement');
    this.scheduleRetry();
  }

  private handleFrame(raw: string): void {
    let frame: { type?: string; client_id?: string; message?: unknown; error?: string; status?: number };
    try {
      frame = JSON.parse(raw);
    } catch {
      return;
    }
    const pending = frame.client_id ? this.pending.get(frame.client_id) : undefined;
    if (!pending) return;
    this.pending.delete(frame.client_id!);
    this.clearAckTimer();
    if (this.pending.size > 0) this.ackTimer = setTimeout(() => this.ackOverdue(), config.sendAckTimeoutMs);
    if (frame.type === 'ack' && frame.message) pending.resolve(frame.message as Message);
    else pending.reject(new ApiError(frame.status ?? 400, frame.error ?? 'send_failed', String(frame.message ?? 'The message was refused')));
  }

  private scheduleRetry(): void {
    if (this.retryTimer || this.closed) return;
    const delay = Math.min(config.reconnectMaxMs, config.reconnectBaseMs * 2 ** this.attempt);
    this.attempt += 1;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.open();
    }, delay);
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
