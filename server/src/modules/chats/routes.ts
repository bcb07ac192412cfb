import type { App } from '../../http/types.js';
import { contractSchema } from '../../http/contract.js';
import { caller } from '../../http/types.js';
import { requestOrigin } from '../../http/origin.js';
import { ChatsService } from './service.js';
import { GroupsService } from './groups.js';
import { chatRoutes as routes } from './schemas.js';

export async function chatsRoutes(app: App): Promise<void> {
  const chats = new ChatsService(app.services);
  const groups = new GroupsService(app.services);

  // Each answer is serialized by its schema: a field the contract does not name never leaves the server.
  app.get(routes.list.url, { schema: contractSchema(routes.list) }, async (request) => {
    const me = caller(request);
    return chats.list(me.id, me.role, requestOrigin(request));
  });

  // Admins (role ≥ 2): every secret group, read-only (docs/api.md, issue 4).
  app.get(routes.listAll.url, { schema: contractSchema(routes.listAll) }, async (request) =>
    chats.listAll(caller(request).id, requestOrigin(request)),
  );

  app.post(routes.create.url, { schema: contractSchema(routes.create) }, async (request, reply) => {
    const me = caller(request).id;
    const origin = requestOrigin(request);
    if (request.body.chat_type === 'group') {
      return reply.code(201).send({ chat: await groups.create(me, request.body, origin) });
    }
    const { chat, created } = await chats.createPrivate(me, request.body.participants, origin);
    return reply.code(created ? 201 : 200).send({ chat });
  });

  app.put(routes.edit.url, { schema: contractSchema(routes.edit) }, async (request) => ({
    chat: await groups.edit(caller(request).id, request.body.chat_id, request.body, requestOrigin(request)),
  }));

  app.put(routes.manageParticipants.url, { schema: contractSchema(routes.manageParticipants) }, async (request) => ({
    chat: await groups.manageParticipants(caller(request).id, request.body.chat_id, request.body.actions, requestOrigin(request)),
  }));

  app.post(routes.join.url, { schema: contractSchema(routes.join) }, async (request) => ({
    chat: await groups.join(caller(request).id, request.body.code, requestOrigin(request)),
  }));

  app.get(routes.find.url, { schema: contractSchema(routes.find), config: { rateLimit: 'lookups' } }, async (request) => ({
    chats: await chats.find(caller(request).id, request.query.query, request.query.is_admin === true, requestOrigin(request)),
  }));

  app.put(routes.notifications.url, { schema: contractSchema(routes.notifications) }, async (request) =>
    chats.setNotifications(caller(request).id, request.body.chat_id, request.body.notifications, requestOrigin(request)),
  );

  app.put(routes.interval.url, { schema: contractSchema(routes.interval) }, async (request) =>
    chats.setInterval(caller(request).id, request.body.chat_id, request.body.interval),
  );

  app.get(routes.history.url, { schema: contractSchema(routes.history) }, async (request) => {
    const { chat_id, page_size = 50, page_num = 1, before_id } = request.query;
    return chats.history(caller(request).id, chat_id, page_size, page_num, before_id);
  });

  app.get(routes.search.url, { schema: contractSchema(routes.search), config: { rateLimit: 'lookups' } }, async (request) =>
    chats.search(caller(request).id, request.query.chat_id, request.query.query),
  );

  app.put(routes.read.url, { schema: contractSchema(routes.read) }, async (request) =>
    chats.markRead(caller(request).id, request.query.chat_id, request.query.message_id),
  );

  app.get(routes.unreadCount.url, { schema: contractSchema(routes.unreadCount) }, async (request) => chats.unreadCount(caller(request).id, request.params.id));

  app.get(routes.get.url, { schema: contractSchema(routes.get) }, async (request) => ({
    chat: await chats.get(caller(request).id, request.params.id, requestOrigin(request)),
  }));

  app.delete(routes.remove.url, { schema: contractSchema(routes.remove) }, async (request) => {
    await chats.remove(caller(request).id, request.params.id, requestOrigin(request));
    return { deleted: true };
  });
}
