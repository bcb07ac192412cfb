import type { App } from '../../http/types.js';
import { caller } from '../../http/types.js';
import { requestOrigin } from '../../http/origin.js';
import { ChatsService } from './service.js';
import { ChatIdParams, ChatIdQuery, CreateChatBody, HistoryQuery } from './schemas.js';

export async function chatsRoutes(app: App): Promise<void> {
  const chats = new ChatsService(app.services);

  app.get('/chat/list', async (request) => {
    const me = caller(request);
    return chats.list(me.id, me.role, requestOrigin(request));
  });

  app.post('/chat/create', { schema: { body: CreateChatBody } }, async (request, reply) => {
    const { chat, created } = await chats.createPrivate(caller(request).id, request.body.participants[0]!, requestOrigin(request));
    return reply.code(created ? 201 : 200).send({ chat });
  });

  app.get('/chat/history', { schema: { querystring: HistoryQuery } }, async (request) => {
    const { chat_id, page_size = 50, page_num = 1, before_id } = request.query;
    return chats.history(caller(request).id, chat_id, page_size, page_num, before_id);
  });

  app.put('/chat/read', { schema: { querystring: ChatIdQuery } }, async (request) =>
    chats.markRead(caller(request).id, request.query.chat_id),
  );

  app.get('/chat/unread-count/:id', { schema: { params: ChatIdParams } }, async (request) =>
    chats.unreadCount(caller(request).id, request.params.id),
  );

  app.get('/chat/:id', { schema: { params: ChatIdParams } }, async (request) => ({
    chat: await chats.get(caller(request).id, request.params.id, requestOrigin(request)),
  }));
}
