import Type from 'typebox';
import type { App } from '../../http/types.js';
import { caller } from '../../http/types.js';
import { HttpError, ServerStrings } from '../../http/errors.js';
import { CloseCode, checkOrigin, superviseSocket } from '../realtime/socket-guard.js';
import { RateLimited } from '../../http/rate-limits.js';
import { SocketPacing } from './pacing.js';
import { MessagesService } from './service.js';
import { clientFrame } from './frames.js';

/** Largest frame accepted on the chat socket: a 10 000-character message in any script fits with room. */
export const CHAT_FRAME_MAX_BYTES = 64 * 1024;

/** How long a cut-off flooder has to finish the closing handshake before its connection is dropped. */
const CUT_OFF_GRACE_MS = 1000;

const ChatSocketQuery = Type.Object({ token: Type.String({ minLength: 1 }) });

const MessageIdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
/** The client says whether it thinks this is the chat's last message; the server works it out itself. */
const DeleteMessageQuery = Type.Object({ is_last_message: Type.Optional(Type.Boolean()) });

/**
 * The chat socket, `/api/chat/socket?token=…`: the client sends messages here and gets each one acknowledged
 * after it is committed. Deliveries to members (the sender's other tabs too) go through `/user/flow`.
 */
export async function messagesRoutes(app: App): Promise<void> {
  const messages = new MessagesService(app.services);

  app.delete('/chat/message/:id', { schema: { params: MessageIdParams, querystring: DeleteMessageQuery } }, async (request) => {
    await messages.delete(caller(request).id, request.params.id);
    return { deleted: true };
  });

  app.get(
    '/chat/socket',
    {
      websocket: true,
      config: { tokenInQuery: true, rateLimit: 'sockets' },
      schema: { querystring: ChatSocketQuery },
      preValidation: async (request) => checkOrigin(request),
    },
    (socket, request) => {
      const auth = caller(request);
      const link = superviseSocket(socket, auth);
      // Frames are handled one after another, so a client's messages are stored in the order it sent them.
      let chain: Promise<void> = Promise.resolve();
      const pacing = new SocketPacing();
      const cutOff = () => {
        socket.close(CloseCode.tooManyFrames, 'too many frames');
        setTimeout(() => socket.terminate(), CUT_OFF_GRACE_MS).unref();
      };
      socket.on('message', (data, isBinary) => {
        if (pacing.cutOff) return;
        if (!pacing.admit()) return cutOff();
        chain = chain.then(async () => {
          if (pacing.cutOff) return;
          let frame: unknown;
          try {
            if (isBinary) throw new Error('binary');
            frame = JSON.parse(String(data));
          } catch {
            link.send({ type: 'error', error: 'bad_frame', message: ServerStrings.cannotParse });
            return;
          }
          if (!clientFrame.Check(frame)) {
            const clientId = (frame as { client_id?: unknown } | null)?.client_id;
            const first = clientFrame.Errors(frame)[0];
            link.send({
              type: 'error',
              error: 'bad_frame',
              message: `${ServerStrings.cannotParse}: ${first ? `${first.instancePath || '/'} ${first.message}` : 'invalid frame'}`,
              ...(typeof clientId === 'string' ? { client_id: clientId } : {}),
            });
            return;
          }
          if (frame.type === 'ping') {
            link.send({ type: 'pong' });
            return;
          }
          if (frame.type === 'hang') {
            const chatId = Number(frame.text);
            try {
              await app.services.calls.hang(auth.id, chatId);
              link.send({ type: 'hung', chat_id: chatId });
            } catch (error) {
              if (!(error instanceof HttpError)) request.log.error({ err: error }, 'hang-up failed');
              const known = error instanceof HttpError;
              link.send({ type: 'error', error: known ? error.code : 'internal', message: known ? error.message : 'Internal server error', status: known ? error.statusCode : 500 });
            }
            return;
          }
          try {
            pacing.checkOrder(frame.client_id);
            await app.services.rateLimits.take('messages', auth.id);
            const result = await messages.send(auth.id, frame);
            link.send({ type: 'ack', client_id: frame.client_id, message: result.message });
          } catch (error) {
            if (error instanceof RateLimited) {
              if (!pacing.refused(frame.client_id, error)) return cutOff();
              link.send({
                type: 'error',
                client_id: frame.client_id,
                error: error.code,
                message: error.message,
                status: error.statusCode,
                retry_after_ms: error.retryAfterMs,
              });
            } else if (error instanceof HttpError) {
              link.send({ type: 'error', client_id: frame.client_id, error: error.code, message: error.message, status: error.statusCode });
            } else {
              request.log.error({ err: error }, 'send failed');
              link.send({ type: 'error', client_id: frame.client_id, error: 'internal', message: 'Internal server error', status: 500 });
            }
          }
        })
          .catch((error: unknown) => request.log.error({ err: error }, 'chat frame failed'))
          .finally(() => pacing.handled());
      });
    },
  );
}
