import { connect, headers as natsHeaders, type NatsConnection, type Subscription } from 'nats';
import type { FastifyBaseLogger } from 'fastify';
import type { FlowEvent, LiveSignal } from '../events/types.js';
import type { RemoteDoorbell } from '../events/bus.js';
import type { RemoteSocketControl } from '../modules/realtime/socket-guard.js';

/**
 * Subjects, under the cluster's name (several clusters may share one NATS): one per person for their live events
 * (nodes listen only for people with a socket there), one for ending sessions.
 */
const eventsSubject = (cluster: string, userId: number) => `${cluster}.events.${userId}`;
const sessionsSubject = (cluster: string) => `${cluster}.sessions.end`;
const callsEndedSubject = (cluster: string) => `${cluster}.calls.ended`;
const callsLeftSubject = (cluster: string) => `${cluster}.calls.left`;
/** A node back on NATS after a loss: every node's sockets read the log, since that node's rings went nowhere. */
const catchUpSubject = (cluster: string) => `${cluster}.catchup`;
/** Development only (the dev SMS provider, refused in production): every code "sent", so any node's outbox has it. */
const devSmsSubject = (cluster: string) => `${cluster}.dev.sms`;

/** How long a new socket waits for NATS to confirm its person's subscription before it reads the log anyway. */
const SUBSCRIBE_WAIT_MS = 2_000;

export interface NatsLinkHandlers {
  /** Another node committed an event of this person: ring their sockets here. */
  onEvent(userId: number, event: FlowEvent): void;
  /** Another node passed on a live signal (someone typing) for this person. */
  onSignal(userId: number, signal: LiveSignal): void;
  /** Another node ended this person's sessions: close their sockets here. */
  onSessionsEnded(userId: number, code: number, reason: string): void;
  /**
   * Rings may have been missed: this node's link came back after a loss (rings to it went nowhere), or another
   * node's did (its rings went nowhere: NATS clients drop what they buffered when they reconnect).
   */
  onCatchUp(): void;
}

/**
 * The cluster's doorbell on NATS. A commit on one node rings the person's sockets on every node; the database
 * log stays the truth, so at-most-once delivery is enough (a lost ring is a gap the socket fills from the log,
 * docs/delivery.md). Interest-based: a node subscribes to a person's subject only while it holds one of their
 * sockets, so an event travels only to the nodes that need it. `noEcho`: a node's own publications never come
 * back to it; it rings its local sockets directly.
 */
export class NatsLink implements RemoteDoorbell, RemoteSocketControl {
  private readonly watched = new Map<number, { subscription: Subscription; heard: Promise<void> }>();
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();

  private constructor(
    private readonly cluster: string,
    private readonly connection: NatsConnection,
    private readonly handlers: NatsLinkHandlers,
    private readonly logger: FastifyBaseLogger,
  ) {
    connection.subscribe(sessionsSubject(cluster), {
      callback: (error, message) => {
        if (error) return this.logger.warn({ err: error }, 'NATS: sessions subscription failed');
        try {
          const { user_id, code, reason } = JSON.parse(this.decoder.decode(message.data)) as { user_id: number; code: number; reason: string };
          this.handlers.onSessionsEnded(user_id, code, reason);
        } catch (parseError) {
          this.logger.warn({ err: parseError }, 'NATS: unreadable sessions message');
        }
      },
    });
    connection.subscribe(catchUpSubject(cluster), {
      callback: (error) => {
        if (error) return this.logger.warn({ err: error }, 'NATS: catch-up subscription failed');
        this.handlers.onCatchUp();
      },
    });
    connection.subscribe(callsEndedSubject(cluster), {
      callback: (error, message) => {
        if (error) return this.logger.warn({ err: error }, 'NATS: calls subscription failed');
        try {
          const { call_id, room_id, reason } = JSON.parse(this.decoder.decode(message.data)) as { call_id: number; room_id: string; reason: string };
          this.onCallEnded?.(call_id, room_id, reason);
        } catch (parseError) {
          this.logger.warn({ err: parseError }, 'NATS: unreadable calls message');
        }
      },
    });
    connection.subscribe(callsLeftSubject(cluster), {
      callback: (error, message) => {
        if (error) return this.logger.warn({ err: error }, 'NATS: calls subscription failed');
        try {
          const { call_id, room_id, user_ids } = JSON.parse(this.decoder.decode(message.data)) as { call_id: number; room_id: string; user_ids: number[] };
          if (Array.isArray(user_ids) && user_ids.every((id) => Number.isInteger(id))) this.onCallLeft?.(call_id, room_id, user_ids);
        } catch (parseError) {
          this.logger.warn({ err: parseError }, 'NATS: unreadable calls message');
        }
      },
    });
    void this.watchStatus();
  }

  /**
   * Shares the development SMS outbox across the cluster: a code texted by one node can be read from any node's
   * `GET /api/dev/sms`, as from a single server. Called only while the dev provider is active.
   */
  shareDevOutbox(outbox: { record(phone: string, code: string): void }): (phone: string, code: string) => void {
    this.connection.subscribe(devSmsSubject(this.cluster), {
      callback: (error, message) => {
        if (error) return this.logger.warn({ err: error }, 'NATS: dev outbox subscription failed');
        try {
          const { phone, code } = JSON.parse(this.decoder.decode(message.data)) as { phone: unknown; code: unknown };
          if (typeof phone === 'string' && typeof code === 'string') outbox.record(phone, code);
        } catch (parseError) {
          this.logger.warn({ err: parseError }, 'NATS: unreadable dev outbox message');
        }
      },
    });
    return (phone, code) => {
      if (this.connection.isClosed()) return;
      try {
        this.connection.publish(devSmsSubject(this.cluster), this.encoder.encode(JSON.stringify({ phone, code })));
      } catch (error) {
        this.logger.warn({ err: error }, 'NATS: dev outbox entry not shared');
      }
    };
  }

  /** A call ended on another node: the node holding its room closes it (set by the calls service). */
  onCallEnded: ((callId: number, roomId: string, reason: string) => void) | null = null;

  announceCallEnded(callId: number, roomId: string, reason: string): void {
    if (this.connection.isClosed()) return;
    try {
      this.connection.publish(callsEndedSubject(this.cluster), this.encoder.encode(JSON.stringify({ call_id: callId, room_id: roomId, reason })));
    } catch (error) {
      this.logger.warn({ err: error }, 'NATS: end of call not sent');
    }
  }

  /** People left a chat on another node during its call: the node holding its room takes them out (set by the calls service). */
  onCallLeft: ((callId: number, roomId: string, userIds: number[]) => void) | null = null;

  announceCallLeft(callId: number, roomId: string, userIds: number[]): void {
    if (this.connection.isClosed()) return;
    try {
      this.connection.publish(callsLeftSubject(this.cluster), this.encoder.encode(JSON.stringify({ call_id: callId, room_id: roomId, user_ids: userIds })));
    } catch (error) {
      this.logger.warn({ err: error }, 'NATS: leave of a call not sent');
    }
  }

  /** Connects (retrying for ever after the first success; the first attempt must succeed, or the node does not start). */
  static async connect(
    options: { url: string; cluster: string; nodeId: string },
    handlers: NatsLinkHandlers,
    logger: FastifyBaseLogger,
  ): Promise<NatsLink> {
    const { url, cluster, nodeId } = options;
    const connection = await connect({
      servers: url.split(',').map((server) => server.trim()),
      name: `${cluster}-${nodeId}`,
      noEcho: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
      pingInterval: 10_000,
    });
    logger.info({ server: connection.getServer(), cluster, node: nodeId }, 'NATS connected');
    return new NatsLink(cluster, connection, handlers, logger);
  }

  /** Whether the link is up now (a node that lost NATS reports itself unhealthy). */
  get connected(): boolean {
    return !this.connection.isClosed() && !this.reconnecting;
  }

  private reconnecting = false;

  ring(userId: number, event: FlowEvent): void {
    if (this.connection.isClosed()) return;
    const headers = natsHeaders();
    headers.set('seq', String(event.seq));
    headers.set('type', event.event_type);
    const body = event.infoJson ?? JSON.stringify(event.additional_info);
    // While disconnected the client buffers, then drops: once back, this node asks every node to catch up.
    try {
      this.connection.publish(eventsSubject(this.cluster, userId), this.encoder.encode(body), { headers });
    } catch (error) {
      this.logger.warn({ err: error }, 'NATS: ring not sent');
    }
  }

  signal(userId: number, signal: LiveSignal): void {
    if (this.connection.isClosed()) return;
    const headers = natsHeaders();
    headers.set('signal', signal.event_type);
    try {
      this.connection.publish(eventsSubject(this.cluster, userId), this.encoder.encode(JSON.stringify(signal.additional_info)), { headers });
    } catch (error) {
      this.logger.warn({ err: error }, 'NATS: signal not sent');
    }
  }

  watch(userId: number): Promise<void> {
    const known = this.watched.get(userId);
    if (known) return known.heard;
    if (this.connection.isClosed()) return Promise.resolve();
    const subscription = this.connection.subscribe(eventsSubject(this.cluster, userId), {
      callback: (error, message) => {
        if (error) return this.logger.warn({ err: error }, 'NATS: events subscription failed');
        const signal = message.headers?.get('signal');
        if (signal) {
          let info: Record<string, unknown>;
          try {
            info = JSON.parse(this.decoder.decode(message.data)) as Record<string, unknown>;
          } catch {
            return this.logger.warn('NATS: unreadable signal dropped');
          }
          // Written by a node of this cluster from a typed signal (publishSignal): passed on as it came.
          return this.handlers.onSignal(userId, { event_type: signal, additional_info: info } as LiveSignal);
        }
        const seq = Number(message.headers?.get('seq'));
        const type = message.headers?.get('type');
        if (!Number.isInteger(seq) || !type) return;
        const infoJson = this.decoder.decode(message.data);
        this.handlers.onEvent(userId, {
          seq,
          event_type: type,
          infoJson,
          // Built only if something asks: the socket sends `infoJson` as it is.
          get additional_info() {
            return JSON.parse(infoJson) as Record<string, unknown>;
          },
        });
      },
    });
    const heard = this.confirmSubscriptions();
    this.watched.set(userId, { subscription, heard });
    return heard;
  }

  private confirming: Promise<void> | null = null;

  /**
   * Settles once NATS has every subscription made so far. It handles a connection's commands in order, so its
   * answer to a ping sent after them says so; one ping serves all the subscriptions of a moment (a node starting
   * with thousands of sockets). While the link is down this waits a bounded time: the reconnect makes every socket
   * catch up anyway. With several NATS servers, the answer is from the one this node is on: interest reaches the
   * others a moment later, and a ring lost in that moment waits for the person's next event (docs/delivery.md).
   */
  private confirmSubscriptions(): Promise<void> {
    this.confirming ??= Promise.resolve().then(() => {
      this.confirming = null;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, SUBSCRIBE_WAIT_MS);
        timer.unref();
      });
      return Promise.race([this.connection.flush(), late])
        .catch(() => undefined)
        .finally(() => clearTimeout(timer));
    });
    return this.confirming;
  }

  unwatch(userId: number): void {
    this.watched.get(userId)?.subscription.unsubscribe();
    this.watched.delete(userId);
  }

  endSessions(userId: number, code: number, reason: string): void {
    if (this.connection.isClosed()) return;
    try {
      this.connection.publish(sessionsSubject(this.cluster), this.encoder.encode(JSON.stringify({ user_id: userId, code, reason })));
    } catch (error) {
      this.logger.warn({ err: error }, 'NATS: end of sessions not sent');
    }
  }

  /** Sends what is buffered and closes. */
  async close(): Promise<void> {
    if (!this.connection.isClosed()) await this.connection.drain();
  }

  private async watchStatus(): Promise<void> {
    for await (const status of this.connection.status()) {
      if (status.type === 'disconnect' || status.type === 'reconnecting') {
        if (!this.reconnecting) this.logger.warn({ status: status.type }, 'NATS connection lost; reconnecting');
        this.reconnecting = true;
      } else if (status.type === 'reconnect') {
        this.reconnecting = false;
        this.logger.info('NATS reconnected');
        // Once NATS has the subscriptions the client sent again on reconnecting, so that no ring falls between
        // them and the log read.
        void this.confirmSubscriptions().then(() => this.handlers.onCatchUp());
        // What this node rang while cut off (and in the last seconds before it knew) reached nobody elsewhere.
        try {
          this.connection.publish(catchUpSubject(this.cluster));
        } catch (error) {
          this.logger.warn({ err: error }, 'NATS: catch-up request not sent');
        }
      }
    }
  }
}
