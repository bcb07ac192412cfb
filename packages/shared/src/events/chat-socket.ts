import { config } from '../config';
import { ApiError } from '../api/errors';
import type { Message } from '../model/types';

export interface OutgoingText {
  client_id: string;
  chat_id: number;
  text: string;
}

interface Pending {
  frame: OutgoingText;
  resolve: (message: Message) => void;
  reject: (error: ApiError) => void;
  /** When this send gives up and reports failure (the message can then be retried by hand). */
  deadline: ReturnType<typeof setTimeout>;
}

export interface ChatSocketOptions {
  url: (token: string) => string;
  getToken: () => Promise<string>;
  createSocket?: (url: string) => WebSocket;
  /** How long a send may stay unacknowledged, across reconnects, before it is reported failed. */
  giveUpMs?: number;
}

const TOKEN_EXPIRED = 4001;

/**
 * The chat socket: opened on first use, frames queued until it is open (spec §4). Each send resolves with the
 * stored message once the server acknowledges it — after its commit — and is re-sent on every reconnection
 * until then; the client id makes repeats harmless. A refusal (`error` with a status) rejects at once.
 */
export class ChatSocket {
  private socket: WebSocket | null = null;
  private opening = false;
  private readonly pending = new Map<string, Pending>();
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private attempt = 0;
  private closed = false;

  constructor(private readonly options: ChatSocketOptions) {}

  send(frame: OutgoingText): Promise<Message> {
    this.closed = false;
    return new Promise<Message>((resolve, reject) => {
      const deadline = setTimeout(() => {
        this.pending.delete(frame.client_id);
        reject(new ApiError(0, 'network', 'The message could not be sent'));
      }, this.options.giveUpMs ?? config.sendAckTimeoutMs * 3);
      this.pending.set(frame.client_id, { frame, resolve, reject, deadline });
      if (this.socket?.readyState === WebSocket.OPEN) this.transmit(frame);
      else void this.open();
    });
  }

  close(): void {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    for (const pending of this.pending.values()) clearTimeout(pending.deadline);
    this.pending.clear();
    const socket = this.socket;
    this.socket = null;
    socket?.close(config.socketNormalCloseCode, config.socketManualCloseReason);
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
      if (this.closed || this.pending.size === 0) return;
      if (close.code === TOKEN_EXPIRED) void this.open();
      else this.scheduleRetry();
    };
  }

  private transmit(frame: OutgoingText): void {
    this.socket?.send(JSON.stringify({ type: 'send', ...frame }));
  }

  private handleFrame(raw: string): void {
    let frame: { type?: string; client_id?: string; message?: Message; error?: string; status?: number } & { message?: unknown };
    try {
      frame = JSON.parse(raw);
    } catch {
      return;
    }
    const pending = frame.client_id ? this.pending.get(frame.client_id) : undefined;
    if (!pending) return;
    this.pending.delete(frame.client_id!);
    clearTimeout(pending.deadline);
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
}
