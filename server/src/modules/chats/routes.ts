import type { App } from '../../http/types.js';
import { caller } from '../../http/types.js';
import { requestOrigin } from '../../http/origin.js';
import { ChatsService } from './service.js';
import { GroupsService } from './groups.js';
import { chatRoutes as routes } from './schemas.js';

export async function chatsRoutes(app: App): Promise<void> {
  const chats = new ChatsService(app.services);
  const groups = new GroupsService(app.services);

  // Each answer is serialized by its schema: a field the contract does not name never leaves the server.
  app.get(routes.list.url, { schema: { response: { 200: routes.list.response } } }, async (request) => {
    const me = caller(request);
    return chats.list(me.id, me.role, requestOrigin(request));
  });

  // Admins (role ≥ 2): every secret group, read-only (docs/api.md, issue 4).
  app.get(routes.listAll.url, { schema: { response: { 200: routes.listAll.response } } }, async (request) =>
    chats.listAll(caller(request).id, requestOrigin(request)),
  );

  const create = { body: routes.create.body, response: { 200: routes.create.response, 201: routes.create.response } };
  app.post(routes.create.url, { schema: create }, async (request, reply) => {
    const me = caller(request).id;
    const origin = requestOrigin(request);
    if (request.body.chat_type === 'group') {
      return reply.code(201).send({ chat: await groups.create(me, request.body, origin) });
    }
    const { chat, created } = await chats.createPrivate(me, request.body.participants, origin);
    return reply.code(created ? 201 : 200).send({ chat });
  });

  app.put(routes.edit.url, { schema: { body: routes.edit.body, response: { 200: routes.edit.response } } }, async (request) => ({
    chat: await groups.edit(caller(request).id, request.body.chat_id, request.body, requestOrigin(request)),
  }));

  const manage = { body: routes.manageParticipants.body, response: { 200: routes.manageParticipants.response } };
  app.put(routes.manageParticipants.url, { schema: manage }, async (request) => ({
    chat: await groups.manageParticipants(caller(request).id, request.body.chat_id, request.body.actions, requestOrigin(request)),
  }));

  app.post(routes.join.url, { schema: { body: routes.join.body, response: { 200: routes.join.response } } }, async (request) => ({
    chat: await groups.join(caller(request).id, request.body.code, requestOrigin(request)),
  }));

  const find = { querystring: routes.find.querystring, response: { 200: routes.find.response } };
  app.get(routes.find.url, { schema: find, config: { rateLimit: 'lookups' } }, async (request) => ({
    chats: await chats.find(caller(request).id, request.query.query, request.query.is_admin === true, requestOrigin(request)),
  }));

  const notifications = { body: routes.notifications.body, response: { 200: routes.notifications.response } };
  app.put(routes.notifications.url, { schema: notifications }, async (request) =>
    chats.setNotifications(caller(request).id, request.body.chat_id, request.body.notifications, requestOrigin(request)),
  );

  app.put(routes.interval.url, { schema: { body: routes.interval.body, response: { 200: routes.interval.response } } }, async (request) =>
    chats.setInterval(caller(request).id, request.body.chat_id, request.body.interval),
  );

  const history = { querystring: routes.history.querystring, response: { 200: routes.history.response } };
  app.get(routes.history.url, { schema: history }, async (request) => {
    const { chat_id, page_size = 50, page_num = 1, before_id } = request.query;
    return chats.history(caller(request).id, chat_id, page_size, page_num, before_id);
  });

  const search = { querystring: routes.search.querystring, response: { 200: routes.search.response } };
  app.get(routes.search.url, { schema: search, config: { rateLimit: 'lookups' } }, async (request) =>
    chats.search(caller(request).id, request.query.chat_id, request.query.query),
  );

  app.put(routes.read.url, { schema: { querystring: routes.read.querystring, response: { 200: routes.read.response } } }, async (request) =>
    chats.markRead(caller(request).id, request.query.chat_id, request.query.message_id),
  );

  const unread = { params: routes.unreadCount.params, response: { 200: routes.unreadCount.response } };
  app.get(routes.unreadCount.url, { schema: unread }, async (request) => chats.unreadCount(caller(request).id, request.params.id));

  app.get(routes.get.url, { schema: { params: routes.get.params, response: { 200: routes.get.response } } }, async (request) => ({
    chat: await chats.get(caller(request).id, request.params.id, requestOrigin(request)),
  }));

  app.delete(routes.remove.url, { schema: { params: routes.remove.params, response: { 200: routes.remove.response } } }, async (request) => {
    await chats.remove(caller(request).id, request.params.id, requestOrigin(request));
    return { deleted: true };
  });
}
