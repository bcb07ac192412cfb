import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { forbidden } from '../../http/errors.js';
import type { AuthUser } from '../../http/types.js';

/** Close codes of our sockets (4000–4999 is the application range). */
export const CloseCode = {
  normal: 1000,
  tokenExpired: 4001,
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

/**
 * What every authenticated socket needs: it closes when its access token expires (the client reconnects with a
 * fresh one), answers nothing to a dead peer for long (ping/pong), and is dropped if it cannot keep up.
 */
export function superviseSocket(
  socket: WebSocket,
  auth: AuthUser,
): { send(frame: unknown): boolean; sendText(text: string): boolean; stop(): void } {
  let alive = true;
  socket.on('pong', () => {
    alive = true;
  });
  const ping = setInterval(() => {
    if (!alive) {
      socket.terminate();
      return;
    }
    alive = false;
    socket.ping();
  }, PING_INTERVAL_MS);
  const untilExpiry = Math.max(0, auth.tokenExp * 1000 - Date.now());
  const expiry = setTimeout(() => socket.close(CloseCode.tokenExpired, 'token expired'), untilExpiry);
  const stop = () => {
    clearInterval(ping);
    clearTimeout(expiry);
  };
  socket.on('close', stop);
  // Frames sent to one socket in one turn of the event loop (a batch's acks, its events) leave in one write:
  // the connection is corked at the first and uncorked once this turn's work is done.
  const connection = (socket as unknown as { _socket?: { cork(): void; uncork(): void } })._socket;
  let corked = false;
  const uncork = () => {
    corked = false;
    connection?.uncork();
  };
  const sendText = (text: string) => {
    if (socket.readyState !== socket.OPEN) return false;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      socket.close(CloseCode.tooSlow, 'too slow');
      return false;
    }
    if (connection && !corked) {
      corked = true;
      connection.cork();
      process.nextTick(uncork);
    }
    socket.send(text);
    return true;
  };
  return { send: (frame: unknown) => sendText(JSON.stringify(frame)), sendText, stop };
}
