import { WebSocket, type RawData } from 'ws';
import type { App } from '../../http/types.js';
import { HttpError, ServerStrings, callNodeUnavailable } from '../../http/errors.js';
import { checkOrigin } from '../realtime/socket-guard.js';
import type { MeetClaims } from '../../security/meet-tokens.js';
import type { MeetingClientFrame, MeetingEnvelope } from '@messenger/protocol';
import type { MeetingSink } from '../../media/engine.js';
import { MeetSocketParams, MeetSocketQuery, meetingClientFrame, meetingEnvelope } from './schemas.js';

/** Marks a request or socket one node passed to the node holding the call's room: it is never passed on again. */
export const FORWARDED_HEADER = 'x-messenger-forwarded';
const PING_INTERVAL_MS = 30_000;

/**
 * The meeting socket of spec §7, `/api/meet/room/{chat_id}/websocket?token=<meeting token>`: signalling between a
 * participant's browser and the SFU. Frames are `{event, data}` with `data` a JSON string. The token is checked
 * before the upgrade; the user id is the token's, never one a client sends.
 */
export async function meetSocketRoutes(app: App): Promise<void> {
  const calls = app.services.calls;

  app.get(
    '/meet/room/:chatId/websocket',
    {
      websocket: true,
      // The meeting token, not an access token, is this socket's key.
      config: { public: true },
      schema: { params: MeetSocketParams, querystring: MeetSocketQuery },
      preValidation: async (request) => checkOrigin(request),
      // After validation, so the chat id is a number.
      preHandler: async (request) => {
        const { chatId } = request.params as { chatId: number };
        const meet = await calls.authorizeSocket((request.query as { token: string }).token, chatId);
        (request as unknown as { meet: typeof meet }).meet = meet;
        // In a cluster the room may live on another node: this socket is then forwarded there — once. A socket
        // forwarded to a node that does not hold the room either (a NODE_URL pointing at the wrong place) is refused
        // rather than passed on again.
        const roomNode = await calls.roomNodeUrl(meet.callId);
        if (roomNode && request.headers[FORWARDED_HEADER]) {
          throw callNodeUnavailable();
        }
        (request as unknown as { roomNode: string | null }).roomNode = roomNode;
      },
    },
    (socket, request) => {
      const claims = (request as unknown as { meet: MeetClaims & { callId: number } }).meet;
      const roomNode = (request as unknown as { roomNode: string | null }).roomNode;
      // Ending the person's sessions (blocked, deleted…) closes this socket too.
      app.services.sockets.track(socket, claims.userId);
      // A browser that vanished without closing is found by its missing pong (here too when the socket is
      // forwarded: the room's node pings only this node, which always answers).
      let alive = true;
      socket.on('pong', () => {
        alive = true;
      });
      const ping = setInterval(() => {
        if (!alive) return socket.terminate();
        alive = false;
        socket.ping();
      }, PING_INTERVAL_MS);
      socket.on('close', () => clearInterval(ping));
      if (roomNode) {
        const { chatId } = request.params as { chatId: number };
        const token = (request.query as { token: string }).token;
        forwardToRoomNode(socket, `${roomNode.replace(/^http/, 'ws')}/api/meet/room/${chatId}/websocket?token=${encodeURIComponent(token)}`, (error) =>
          request.log.warn({ err: error }, 'forwarding a meeting socket failed'),
        );
        return;
      }
      // The room's frames (offers, candidates, participants…) come from the calls service and the media engine.
      const send: MeetingSink = (event, data) => {
        const frame: MeetingEnvelope = { event, data: JSON.stringify(data) };
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
      };

      const ready = calls.connect(claims, send, () => socket.close(1000, 'call ended')).catch((error: unknown) => {
        if (error instanceof HttpError && error.code === 'room_full') {
          send('full', { message: error.message });
          socket.close(4009, 'cannot join');
        } else if (error instanceof HttpError && error.code === 'call_ended') {
          // It ended while the join waited: the same frame and close as for a call that ends with people in it.
          send('ended', {});
          socket.close(1000, 'call ended');
        } else {
          request.log.error({ err: error }, 'joining the call failed');
          socket.close(1011, 'cannot join');
        }
        return null;
      });

      // Frames are handled in order: an answer must be applied before the candidates that follow it.
      let chain: Promise<unknown> = ready;
      socket.on('message', (raw, isBinary) => {
        chain = chain.then(async () => {
          const connection = await ready;
          if (!connection) return;
          // A frame over 64 KiB never gets here: the WebSocket server closes the socket with 1009 (app.ts,
          // maxPayload), which an SDP answer with many m-lines is far below.
          const frame = isBinary ? null : readFrame(String(raw));
          // Unreadable, or none of the contract's frames: said so, and the socket stays open.
          if (!frame) return send('error', { message: ServerStrings.cannotParse });
          switch (frame.event) {
            case 'ping':
              return send('pong', {});
            case 'answer':
            case 'candidate':
              return connection.member.handle(frame.event, frame.data);
            case 'video':
              return calls.setVideo(claims, connection, frame.data.on);
            case 'stream':
              return; // informational: stream ids are the server's (u<user id>)
          }
        }).catch((error: unknown) => request.log.warn({ err: error }, 'meeting frame failed'));
      });

      // 1000 is a hang-up; any other code (a network drop, a reload, a browser reconnecting) holds the place.
      socket.on('close', (code) => {
        void ready.then((connection) => (connection ? calls.disconnect(claims, connection, code) : undefined)).catch((error: unknown) =>
          request.log.error({ err: error }, 'leaving the call failed'),
        );
      });
    },
  );
}

/** Close codes a socket may send (1005 and 1006 only describe what happened): anything else is "going away". */
function sendableCode(code: number): number {
  return code === 1000 || (code >= 1001 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999) ? code : 1001;
}

/**
 * Pipes a meeting socket to the node that holds the call's room, frames and close codes both ways, so that the
 * browser cannot tell: the room node checks the token again, and a close there (ended, full) closes here. A
 * browser that drops shows there as "going away" (1001), which holds its place like any drop; 1000 (leaving)
 * passes as it is.
 */
function forwardToRoomNode(socket: WebSocket, url: string, onError: (error: Error) => void): void {
  let upstream: WebSocket;
  try {
    // Server → browser frames have no size limit on the direct path either (an offer grows with the room).
    upstream = new WebSocket(url, { headers: { [FORWARDED_HEADER]: '1' } });
  } catch {
    // The message would hold the URL, and so the meeting token: said without it.
    onError(new Error('the room node address is not a valid URL (NODE_URL)'));
    socket.close(1011, 'call server unavailable');
    return;
  }
  const early: Array<{ data: RawData; binary: boolean }> = [];
  socket.on('message', (data, binary) => {
    if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary });
    else early.push({ data, binary });
  });
  upstream.on('open', () => {
    for (const frame of early.splice(0)) upstream.send(frame.data, { binary: frame.binary });
  });
  upstream.on('message', (data, binary) => {
    if (socket.readyState === WebSocket.OPEN) socket.send(data, { binary });
  });
  upstream.on('close', (code, reason) => {
    if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING) socket.close(sendableCode(code), reason);
  });
  upstream.on('error', (error) => {
    onError(error);
    if (socket.readyState === WebSocket.OPEN) socket.close(1011, 'call server unavailable');
  });
  socket.on('close', (code, reason) => {
    if (upstream.readyState === WebSocket.OPEN) upstream.close(sendableCode(code), reason);
    else if (upstream.readyState === WebSocket.CONNECTING) upstream.terminate();
  });
}

/**
 * A browser's frame with its `data` parsed, when it is one of the contract's (packages/protocol, meeting-socket.ts):
 * null for text that is no JSON, an envelope that is not `{event, data}` with both text, data that is no JSON, or
 * an event or data the contract does not allow.
 */
function readFrame(text: string): MeetingClientFrame | null {
  try {
    const envelope: unknown = JSON.parse(text);
    if (!meetingEnvelope.Check(envelope)) return null;
    const frame: unknown = { event: envelope.event, data: JSON.parse(envelope.data) };
    return meetingClientFrame.Check(frame) ? frame : null;
  } catch {
    return null;
  }
}
