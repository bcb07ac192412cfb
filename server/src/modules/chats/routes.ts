import type { App } from '../../http/types.js';
import { caller } from '../../http/types.js';
import { requestOrigin } from '../../http/origin.js';
import { ChatsService } from './service.js';
import { GroupsService } from './groups.js';
import {
  ChatIdParams,
  CreateChatBody,
  EditChatBody,
  FindChatsQuery,
  HistoryQuery,
  IntervalBody,
  JoinChatBody,
  ManageParticipantsBody,
  NotificationsBody,
  ReadQuery,
  SearchQuery,
} from './schemas.js';

export async function chatsRoutes(app: App): Promise<void> {
  const chats = new ChatsService(app.services);
  const groups = new GroupsService(app.services);

  app.get('/chat/list', async (request) => {
    const me = caller(request);
    return chats.list(me.id, me.role, requestOrigin(request));
  });

  // Admins (role ≥ 2): every secret group, read-only (docs/api.md, issue 4).
  app.get('/chat/list/all', async (request) => chats.listAll(caller(request).id, requestOrigin(request)));

  app.post('/chat/create', { schema: { body: CreateChatBody } }, async (request, reply) => {
    const me = caller(request).id;
    const origin = requestOrigin(request);
    if (request.body.chat_type === 'group') {
      return reply.code(201).send({ chat: await groups.create(me, request.body, origin) });
    }
    const { chat, created } = await chats.createPrivate(me, request.body.participants, origin);
    return reply.code(created ? 201 : 200).send({ chat });
  });

  app.put('/chat/edit', { schema: { body: EditChatBody } }, async (request) => ({
    chat: await groups.edit(caller(request).id, request.body.chat_id, request.body, requestOrigin(request)),
  }));

  app.put('/chat/manage-participants', { schema: { body: ManageParticipantsBody } }, async (request) => ({
    chat: await groups.manageParticipants(caller(request).id, request.body.chat_id, request.body.actions, requestOrigin(request)),
  }));

  app.post('/chat/join', { schema: { body: JoinChatBody } }, async (request) => ({
    chat: await groups.join(caller(request).id, request.body.code, requestOrigin(request)),
  }));

  app.get('/chat/find', { schema: { querystring: FindChatsQuery }, config: { rateLimit: 'lookups' } }, async (request) => ({
    chats: await chats.find(caller(request).id, request.query.query, request.query.is_admin === true, requestOrigin(request)),
  }));

  app.put('/chat/notifications', { schema: { body: NotificationsBody } }, async (request) =>
    chats.setNotifications(caller(request).id, request.body.chat_id, request.body.notifications, requestOrigin(request)),
  );

  app.put('/chat/interval', { schema: { body: IntervalBody } }, async (request) =>
    chats.setInterval(caller(request).id, request.body.chat_id, request.body.interval),
  );

  app.get('/chat/history', { schema: { querystring: HistoryQuery } }, async (request) => {
    const { chat_id, page_size = 50, page_num = 1, before_id } = request.query;
    return chats.history(caller(request).id, chat_id, page_size, page_num, before_id);
  });

  app.get('/chat/search', { schema: { querystring: SearchQuery }, config: { rateLimit: 'lookups' } }, async (request) =>
    chats.search(caller(request).id, request.query.chat_id, request.query.query),
  );

  app.put('/chat/read', { schema: { querystring: ReadQuery } }, async (request) =>
    chats.markRead(caller(request).id, request.query.chat_id, request.query.message_id),
  );

  app.get('/chat/unread-count/:id', { schema: { params: ChatIdParams } }, async (request) =>
    chats.unreadCount(caller(request).id, request.params.id),
  );

  app.get('/chat/:id', { schema: { params: ChatIdParams } }, async (request) => ({
    chat: await chats.get(caller(request).id, request.params.id, requestOrigin(request)),
  }));

  app.delete('/chat/:id', { schema: { params: ChatIdParams } }, async (request) => {
    await chats.remove(caller(request).id, request.params.id, requestOrigin(request));
    return { deleted: true };
  });
}
