import Type from 'typebox';
import type { App } from '../../http/types.js';
import { contractSchema } from '../../http/contract.js';
import { caller } from '../../http/types.js';
import { checkOrigin } from '../realtime/socket-guard.js';
import { MessagesService } from './service.js';
import { ChatSocketSession } from './chat-socket.js';
import { Reactions } from './reactions.js';
import { messageRoutes as routes } from '@messenger/protocol';

/** Largest frame accepted on the chat socket: a 10 000-character message in any script fits with room. */
export const CHAT_FRAME_MAX_BYTES = 64 * 1024;

const ChatSocketQuery = Type.Object({ token: Type.String({ minLength: 1 }) });

/**
 * The chat socket, `/api/chat/socket?token=…`: the client sends messages here and gets each one acknowledged
 * after it is committed. Deliveries to members (the sender's other tabs too) go through `/user/flow`.
 */
export async function messagesRoutes(app: App): Promise<void> {
  const messages = new MessagesService(app.services);

  // Each answer is serialized by its schema: a field the contract does not name never leaves the server.
  app.delete(routes.remove.url, { schema: contractSchema(routes.remove) }, async (request) => {
    await messages.delete(caller(request).id, request.params.id);
    return { deleted: true };
  });

  // Edits and reactions reach every member like a message does: they draw on the same allowance as sends.
  app.put(routes.edit.url, { schema: contractSchema(routes.edit), config: { rateLimit: 'messages' } }, async (request) =>
    messages.edit(caller(request).id, request.params.id, request.body.text),
  );

  const reactions = new Reactions(app.services);
  app.put(routes.react.url, { schema: contractSchema(routes.react), config: { rateLimit: 'messages' } }, async (request) =>
    reactions.set(caller(request).id, request.params.id, request.body.emoji),
  );
  app.delete(routes.unreact.url, { schema: contractSchema(routes.unreact), config: { rateLimit: 'messages' } }, async (request) =>
    reactions.set(caller(request).id, request.params.id, null),
  );

  app.get(routes.readers.url, { schema: contractSchema(routes.readers) }, async (request) =>
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
