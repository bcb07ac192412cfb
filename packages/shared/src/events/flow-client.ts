import { config } from '../config';
import { checkFlowFrame } from '../api/contract-check';
import type { FlowEvent } from '../model/events';
import type { ConnectionStatus } from './bus';
import { Backoff } from './backoff';

export interface FlowClientOptions {
  /** Builds the socket URL for a token and the last applied seq (null on a first connection). */
  url: (token: string, since: number | null) => string;
  /** A valid access token; refreshed by the caller when needed. */
  /** An access token; `renew` asks for a new one even if the current one has not expired (sessions ended). */
  getToken: (renew?: boolean) => Promise<string>;
  /** Called once per event, in seq order, never twice for one seq. */
  onEvent: (event: FlowEvent) => void;
  /**
   * The server cannot resume from our seq: reload state, then carry on from `seq`. Events that come while the
   * returned promise is pending are held and applied, in order, once it settles: a state read after them would
   * otherwise overwrite them.
   */
  onResync: (seq: number) => Promise<unknown> | void;
  /** A live signal without a seq (someone typing): passed on as it comes, outside the event order. */
  onSignal?: (signal: { event_type: string; additional_info: unknown }) => void;
  onStatus?: (status: ConnectionStatus) => void;
  createSocket?: (url: string) => WebSocket;
}

const TOKEN_EXPIRED = 4001;
/** The server ended this person's sessions (blocked, deleted, role changed): a refresh says whether they go on. */
const SESSION_ENDED = 4003;

/**
 * The `/user/flow` connection: one per session. It applies events strictly in seq order — an event at
 * `last + 1` is applied, one at or below `last` is a duplicate and dropped, one further ahead waits briefly for
 * the gap to fill and otherwise triggers a reconnect that resumes from `last`. It reconnects with back-off
 * after any drop, and at once when the browser comes back online. When the browser says it went offline the
 * socket is given up at once: a socket whose network is gone may stay "open" for a long while without a word
 * (the server's pings are invisible to a page), and the person would see nothing but messages that never go.
 */
export class FlowClient {
  private socket: WebSocket | null = null;
  private lastSeq: number | null = null;
  private readonly ahead = new Map<number, FlowEvent>();
  /** The reload a resync asked for, while it runs; and the events that came meanwhile. */
  private reloading: Promise<unknown> | null = null;
  private held: FlowEvent[] = [];
  private gapTimer: ReturnType<typeof setTimeout> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly backoff = new Backoff();
  private running = false;
  private status: ConnectionStatus = 'idle';

  constructor(private readonly options: FlowClientOptions) {}

  /** Starts following events after `since` (the seq of the state already loaded), or from now when null. */
  start(since: number | null): void {
    if (this.running) return;
    this.running = true;
    this.lastSeq = since;
    if (typeof window !== 'undefined') {
      window.addEventListener('online', this.reconnectNow);
      window.addEventListener('offline', this.dropNow);
    }
    void this.connect();
  }

  /** The spec's manual clear: close with 1000 "Manual close" and stay closed. */
  stop(): void {
    this.running = false;
    if (typeof window !== 'undefined') {
      window.removeEventListener('online', this.reconnectNow);
      window.removeEventListener('offline', this.dropNow);
    }
    this.clearTimers();
    this.ahead.clear();
    this.reloading = null;
    this.held = [];
    const socket = this.socket;
    this.socket = null;
    socket?.close(config.socketNormalCloseCode, config.socketManualCloseReason);
    this.setStatus('idle');
  }

  get seq(): number | null {
    return this.lastSeq;
  }

  private readonly reconnectNow = () => {
    if (!this.running || this.status === 'online') return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    void this.connect();
  };

  /** The browser lost its network: the connection is down now, not after a timeout; it resumes from `lastSeq`. */
  private readonly dropNow = () => {
    if (!this.running) return;
    const socket = this.socket;
    this.socket = null;
    this.clearGap();
    this.ahead.clear();
    socket?.close(config.socketNormalCloseCode, 'offline');
    this.setStatus('offline');
    this.scheduleReconnect();
  };

  private async connect(renewToken = false): Promise<void> {
    if (!this.running) return;
    // Known to be offline: nothing to try until the browser says it is back ('online').
    if (typeof navigator !== 'undefined' && navigator.onLine === false) {
      this.setStatus('offline');
      return;
    }
    this.setStatus('connecting');
    let token: string;
    try {
      token = await this.options.getToken(renewToken);
    } catch {
      this.scheduleReconnect();
      return;
    }
    if (!this.running) return;
    const socket = (this.options.createSocket ?? ((url) => new WebSocket(url)))(this.options.url(token, this.lastSeq));
    this.socket = socket;
    socket.onmessage = (message) => {
      if (this.socket === socket) this.handleFrame(String(message.data));
    };
    socket.onclose = (close) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.clearGap();
      if (!this.running) return;
      this.setStatus('offline');
      // A new token, not one this browser's clock thinks is still good: the server said it is not, or the session
      // ended (a refused refresh ends it here too).
      if (close.code === TOKEN_EXPIRED || close.code === SESSION_ENDED) void this.connect(true);
      else this.scheduleReconnect();
    };
  }

  private handleFrame(raw: string): void {
    let frame: { seq?: number; event_type?: string; additional_info?: { seq?: number } };
    try {
      frame = JSON.parse(raw);
    } catch {
      return;
    }
    // Development builds and tests only (production builds drop it, with the schemas): see api/contract-check.ts.
    if (process.env.NODE_ENV !== 'production') checkFlowFrame(frame);
    if (typeof frame.seq === 'number') {
      if (this.reloading) this.held.push(frame as FlowEvent);
      else this.receive(frame as FlowEvent);
      return;
    }
    const seq = frame.additional_info?.seq;
    if (frame.event_type === 'ready' && typeof seq === 'number') {
      if (this.lastSeq === null) this.lastSeq = seq;
      this.backoff.reset();
      this.setStatus('online');
    } else if (frame.event_type === 'resync' && typeof seq === 'number') {
      this.lastSeq = seq;
      this.ahead.clear();
      this.clearGap();
      this.held = [];
      this.reloading = null;
      const reloaded = this.options.onResync(seq);
      if (!(reloaded instanceof Promise)) return;
      const reload = reloaded.catch(() => undefined);
      this.reloading = reload;
      void reload.then(() => {
        if (this.reloading !== reload) return; // a later resync took over
        this.reloading = null;
        for (const event of this.held.splice(0)) this.receive(event);
      });
    } else if (frame.event_type && frame.event_type !== 'error' && frame.event_type !== 'ready' && frame.event_type !== 'resync') {
      this.options.onSignal?.({ event_type: frame.event_type, additional_info: frame.additional_info });
    }
  }

  private receive(event: FlowEvent): void {
    if (this.lastSeq === null) this.lastSeq = event.seq - 1;
    if (event.seq <= this.lastSeq) return; // already applied
    if (event.seq > this.lastSeq + 1) {
      this.ahead.set(event.seq, event);
      this.gapTimer ??= setTimeout(() => this.gapStillOpen(), config.gapWaitMs);
      return;
    }
    this.apply(event);
    for (let next = this.ahead.get(this.lastSeq + 1); next; next = this.ahead.get(this.lastSeq + 1)) {
      this.ahead.delete(next.seq);
      this.apply(next);
    }
    if (this.ahead.size === 0) this.clearGap();
  }

  private apply(event: FlowEvent): void {
    this.lastSeq = event.seq;
    this.options.onEvent(event);
  }

  /** The missing events did not come: reconnect from the last applied seq and let the server replay them. */
  private gapStillOpen(): void {
    this.gapTimer = null;
    if (this.ahead.size === 0) return;
    this.ahead.clear();
    const socket = this.socket;
    this.socket = null;
    socket?.close(config.socketNormalCloseCode, 'resume');
    void this.connect();
  }

  private scheduleReconnect(): void {
    if (!this.running || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, this.backoff.next());
  }

  private setStatus(status: ConnectionStatus): void {
    if (this.status === status) return;
    this.status = status;
    this.options.onStatus?.(status);
  }

  private clearGap(): void {
    if (this.gapTimer) clearTimeout(this.gapTimer);
    this.gapTimer = null;
  }

  private clearTimers(): void {
    this.clearGap();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }
}
