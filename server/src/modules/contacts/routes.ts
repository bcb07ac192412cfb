import type { App } from '../../http/types.js';
import { contractSchema } from '../../http/contract.js';
import { caller } from '../../http/types.js';
import { requestOrigin } from '../../http/origin.js';
import { refuseGuests } from '../users/actor.js';
import { ContactsService } from './service.js';
import { contactRoutes as routes } from './schemas.js';

export async function contactsRoutes(app: App): Promise<void> {
  const contacts = new ContactsService(app.services);

  // Guests read and write in their chats but keep no contacts (docs/api.md): every route here refuses them.
  app.addHook('preHandler', async (request) => {
    refuseGuests(caller(request));
  });

  // Each answer is serialized by its schema: a field the contract does not name never leaves the server.
  app.get(routes.list.url, { schema: contractSchema(routes.list) }, async (request) => ({ contacts: await contacts.list(caller(request).id) }));

  app.post(
    routes.add.url,
    { schema: contractSchema(routes.add), config: { rateLimit: 'lookups' } },
    async (request) => contacts.add(caller(request).id, request.body, requestOrigin(request)),
  );

  app.put(routes.edit.url, { schema: contractSchema(routes.edit) }, async (request) => ({
    contact: await contacts.rename(caller(request).id, request.body.user_id, request.body.name),
  }));

  app.delete(routes.remove.url, { schema: contractSchema(routes.remove) }, async (request) => {
    await contacts.remove(caller(request).id, request.params.id);
    return { deleted: true };
  });
}
