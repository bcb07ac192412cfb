import Type from 'typebox';
import type { App } from '../../http/types.js';
import { caller } from '../../http/types.js';
import { Id } from '../../http/schema-types.js';
import { checkOrigin } from '../realtime/socket-guard.js';
import { MessagesService, TEXT_MAX } from './service.js';
import { ChatSocketSession } from './chat-socket.js';
import { REACTION_EMOJI, Reactions } from './reactions.js';

/** Largest frame accepted on the chat socket: a 10 000-character message in any script fits with room. */
export const CHAT_FRAME_MAX_BYTES = 64 * 1024;

const ChatSocketQuery = Type.Object({ token: Type.String({ minLength: 1 }) });

const MessageIdParams = Type.Object({ id: Id });
/** The client says whether it thinks this is the chat's last message; the server works it out itself. */
/** The new text (trimmed; 1 to 10 000 characters, counted as the server counts them: the bound here is the wire's). */
const EditMessageBody = Type.Object({ text: Type.String({ maxLength: TEXT_MAX * 2 }) }, { additionalProperties: false });
const ReactionBody = Type.Object({ emoji: Type.Union(REACTION_EMOJI.map((emoji) => Type.Literal(emoji))) }, { additionalProperties: false });
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

  // Edits and reactions reach every member like a message does: they draw on the same allowance as sends.
  app.put('/chat/message/:id', { schema: { params: MessageIdParams, body: EditMessageBody }, config: { rateLimit: 'messages' } }, async (request) =>
    messages.edit(caller(request).id, request.params.id, request.body.text),
  );

  const reactions = new Reactions(app.services);
  app.put('/chat/message/:id/reaction', { schema: { params: MessageIdParams, body: ReactionBody }, config: { rateLimit: 'messages' } }, async (request) =>
    reactions.set(caller(request).id, request.params.id, request.body.emoji),
  );
  app.delete('/chat/message/:id/reaction', { schema: { params: MessageIdParams }, config: { rateLimit: 'messages' } }, async (request) =>
    reactions.set(caller(request).id, request.params.id, null),
  );

  app.get('/chat/message/:id/readers', { schema: { params: MessageIdParams } }, async (request) =>
    messages.readers(caller(request).id, request.params.id),
  );

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
      const link = app.services.sockets.watch(socket, auth);
      const session = new ChatSocketSession(auth.id, socket, link, app.services, messages, app.log);
      socket.on('message', (data, isBinary) => session.receive(data, isBinary));
    },
  );
}
