import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { forbidden } from '../../http/errors.js';
import type { AuthUser } from '../../http/types.js';

/** Close codes of our sockets (4000–4999 is the application range). */
export const CloseCode = {
  normal: 1000,
  tokenExpired: 4001,
  /** The person's sessions were ended (blocked, deleted, role changed, password reset): refresh to learn why. */
  sessionEnded: 4003,
  tooSlow: 4008,
  /** Sent frames without waiting for answers, far past what any client of ours does (a flood). */
  tooManyFrames: 4029,
} as const;

const PING_INTERVAL_MS = 30_000;
/** A client that lets this much pile up unread is dropped; it resumes from its seq when it reconnects. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/**
 * Refuses a cross-site upgrade before it happens: browsers always send Origin on a WebSocket, and only our own
 * origin (or one configured in ALLOWED_ORIGINS) may open sockets with a user's token.
 */
export function checkOrigin(request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (!origin) return; // not a browser; the token alone decides
  const own = `${request.protocol}://${request.host}`;
  const allowed = request.server.services.config.allowedOrigins;
  if (origin !== own && !allowed.includes(origin) && origin !== request.server.services.config.publicUrl) {
    throw forbidden('This origin may not open sockets', 'origin_not_allowed');
  }
}

/** A socket's way out: frames are checked against back-pressure, and one turn's frames leave in one write. */
export class SocketLink {
  private corked = false;
  private readonly connection: { cork(): void; uncork(): void } | undefined;

  constructor(private readonly socket: WebSocket) {
    // ws keeps the TCP connection private; corking it is what lets several frames share one write.
    this.connection = (socket as unknown as { _socket?: { cork(): void; uncork(): void } })._socket;
  }

  send(frame: unknown): boolean {
    return this.sendText(JSON.stringify(frame));
  }

  /**
   * Sends a frame already serialized. A client that lets more than 4 MiB pile up unread is cut off (4008, it
   * resumes from its seq). Frames sent to one socket in one turn of the event loop (a batch's acks, its events)
   * leave in one write: the connection is corked at the first and uncorked when the turn's work is done.
   */
  sendText(text: string): boolean {
    const socket = this.socket;
    if (socket.readyState !== socket.OPEN) return false;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      socket.close(CloseCode.tooSlow, 'too slow');
      return false;
    }
    if (this.connection && !this.corked) {
      this.corked = true;
      this.connection.cork();
      process.nextTick(uncork, this);
    }
    socket.send(text);
    return true;
  }

  uncork(): void {
    this.corked = false;
    this.connection?.uncork();
  }
}

function uncork(link: SocketLink): void {
  link.uncork();
}

interface Supervised {
  userId: number;
  /** When the access token the socket was opened with expires (ms since the epoch). */
  expiresAt: number;
  /** Answered the last ping. */
  alive: boolean;
}

/** The other nodes of a cluster (cluster/nats-link.ts): they close their sockets of a person too. */
export interface RemoteSocketControl {
  endSessions(userId: number, code: number, reason: string): void;
}

/**
 * Watches every authenticated socket of the process with one timer, not two per socket (a server holds tens of
 * thousands of idle ones): a socket closes when its access token expires (4001; the client reconnects with a
 * fresh one), and one whose peer does not answer a ping within 30 s is dropped.
 */
export class SocketSupervisor {
  private readonly sockets = new Map<WebSocket, Supervised>();
  /** Every socket of a person (the ones watched here and others tracked, like the meeting socket). */
  private readonly byUser = new Map<number, Set<WebSocket>>();
  private timer: NodeJS.Timeout | null = null;
  private nextPingAt = 0;
  private remote: RemoteSocketControl | null = null;

  /** Joins the cluster: ending a person's sessions closes their sockets on every node. */
  connectRemote(remote: RemoteSocketControl): void {
    this.remote = remote;
  }

  watch(socket: WebSocket, auth: AuthUser): SocketLink {
    this.sockets.set(socket, { userId: auth.id, expiresAt: auth.tokenExp * 1000, alive: true });
    this.track(socket, auth.id);
    releaseUpgrade(socket);
    socket.on('pong', onPong);
    socket.on('close', onClose);
    (socket as SupervisedSocket)[SUPERVISOR] = this;
    if (!this.timer) {
      this.nextPingAt = Date.now() + PING_INTERVAL_MS;
      this.timer = setInterval(() => this.check(), CHECK_INTERVAL_MS);
      this.timer.unref();
    }
    return new SocketLink(socket);
  }

  /** How many sockets are open (figures, tests). */
  get size(): number {
    return this.sockets.size;
  }

  /** Counts a socket as `userId`'s, so that ending their sessions closes it; it leaves the count when it closes. */
  track(socket: WebSocket, userId: number): void {
    let mine = this.byUser.get(userId);
    if (!mine) this.byUser.set(userId, (mine = new Set()));
    mine.add(socket);
    socket.once('close', () => {
      mine.delete(socket);
      if (mine.size === 0 && this.byUser.get(userId) === mine) this.byUser.delete(userId);
    });
  }

  /** Closes every open socket of a person (their sessions ended), on this node and on the others. */
  closeUser(userId: number, code: number, reason: string): void {
    this.closeUserHere(userId, code, reason);
    this.remote?.endSessions(userId, code, reason);
  }

  /** Closes the person's sockets on this node only (another node ended their sessions). */
  closeUserHere(userId: number, code: number, reason: string): void {
    for (const socket of this.byUser.get(userId) ?? []) socket.close(code, reason);
  }

  markAlive(socket: WebSocket): void {
    const state = this.sockets.get(socket);
    if (state) state.alive = true;
  }

  forget(socket: WebSocket): void {
    this.sockets.delete(socket);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private check(): void {
    const now = Date.now();
    const ping = now >= this.nextPingAt;
    if (ping) this.nextPingAt = now + PING_INTERVAL_MS;
    for (const [socket, state] of this.sockets) {
      if (now >= state.expiresAt) {
        this.sockets.delete(socket);
        socket.close(CloseCode.tokenExpired, 'token expired');
      } else if (ping) {
        if (!state.alive) {
          this.sockets.delete(socket);
          socket.terminate();
        } else {
          state.alive = false;
          socket.ping();
        }
      }
    }
  }
}

const CHECK_INTERVAL_MS = 1000;
const SUPERVISOR = Symbol('supervisor');
type SupervisedSocket = WebSocket & { [SUPERVISOR]?: SocketSupervisor };

/**
 * Lets go of the HTTP objects of the upgrade once the socket is open, so an idle socket costs only itself: the
 * websocket plugin keeps the request, the reply and the request's logger alive for the socket's whole life through
 * its error listener and the response it assigned to the connection (a few KB each, times tens of thousands).
 */
function releaseUpgrade(socket: WebSocket): void {
  socket.removeAllListeners('error');
  socket.on('error', onError);
  const connection = (socket as unknown as { _socket?: { _httpMessage?: { detachSocket(connection: unknown): void } | null } })._socket;
  connection?._httpMessage?.detachSocket(connection);
}

// Shared listeners (ws calls them with the socket as `this`): nothing is allocated per socket for them.
function onError(this: SupervisedSocket): void {
  // A peer gone without a close (a reset, a broken frame): ws closes the socket; nothing to report.
}

function onPong(this: SupervisedSocket): void {
  this[SUPERVISOR]?.markAlive(this);
}

function onClose(this: SupervisedSocket): void {
  this[SUPERVISOR]?.forget(this);
}
