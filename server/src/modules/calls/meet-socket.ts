import type { App } from '../../http/types.js';
import { HttpError, ServerStrings } from '../../http/errors.js';
import { checkOrigin } from '../realtime/socket-guard.js';
import type { MeetClaims } from '../../security/meet-tokens.js';
import { MeetSocketParams, MeetSocketQuery } from './schemas.js';

/** Largest frame a browser sends here (an SDP answer with many m-lines fits easily). */
const MAX_FRAME_BYTES = 64 * 1024;
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
        (request as unknown as { meet: MeetClaims & { callId: number } }).meet = await calls.authorizeSocket(
          (request.query as { token: string }).token,
          chatId,
        );
      },
    },
    (socket, request) => {
      const claims = (request as unknown as { meet: MeetClaims & { callId: number } }).meet;
      // Ending the person's sessions (blocked, deleted…) closes this socket too.
      app.services.sockets.track(socket, claims.userId);
      const send = (event: string, data: unknown) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ event, data: JSON.stringify(data) }));
      };
      let alive = true;
      socket.on('pong', () => {
        alive = true;
      });
      const ping = setInterval(() => {
        if (!alive) return socket.terminate();
        alive = false;
        socket.ping();
      }, PING_INTERVAL_MS);

      const ready = calls.connect(claims, send, () => socket.close(1000, 'call ended')).catch((error: unknown) => {
        if (error instanceof HttpError && error.code === 'room_full') send('full', { message: error.message });
        else request.log.error({ err: error }, 'joining the call failed');
        socket.close(error instanceof HttpError && error.code === 'room_full' ? 4009 : 1011, 'cannot join');
        return null;
      });

      // Frames are handled in order: an answer must be applied before the candidates that follow it.
      let chain: Promise<unknown> = ready;
      socket.on('message', (raw, isBinary) => {
        chain = chain.then(async () => {
          const connection = await ready;
          if (!connection) return;
          let frame: { event?: unknown; data?: unknown };
          try {
            if (isBinary || (raw as Buffer).length > MAX_FRAME_BYTES) throw new Error('bad frame');
            frame = JSON.parse(String(raw));
          } catch {
            send('error', { message: ServerStrings.cannotParse });
            return;
          }
          let data: unknown = null;
          try {
            data = typeof frame.data === 'string' && frame.data ? JSON.parse(frame.data) : null;
          } catch {
            send('error', { message: ServerStrings.cannotParse });
            return;
          }
          if (frame.event === 'ping') send('pong', {});
          else if (frame.event === 'answer' && isDescription(data)) await connection.member.handle('answer', data);
          else if (frame.event === 'candidate' && data && typeof data === 'object') await connection.member.handle('candidate', data);
          else if (frame.event === 'video' && isVideoState(data)) calls.setVideo(claims, connection, data.on);
          else if (frame.event === 'stream') return; // informational: stream ids are the server's (u<user id>)
          else send('error', { message: ServerStrings.cannotParse });
        }).catch((error: unknown) => request.log.warn({ err: error }, 'meeting frame failed'));
      });

      // 1000 is a hang-up; any other code (a network drop, a reload, a browser reconnecting) holds the place.
      socket.on('close', (code) => {
        clearInterval(ping);
        void ready.then((connection) => (connection ? calls.disconnect(claims, connection, code) : undefined)).catch((error: unknown) =>
          request.log.error({ err: error }, 'leaving the call failed'),
        );
      });
    },
  );
}

function isVideoState(data: unknown): data is { on: boolean } {
  return Boolean(data && typeof data === 'object' && typeof (data as { on?: unknown }).on === 'boolean');
}

function isDescription(data: unknown): data is { type: 'answer'; sdp: string } {
  return Boolean(data && typeof data === 'object' && (data as { type?: unknown }).type === 'answer' && typeof (data as { sdp?: unknown }).sdp === 'string');
}
