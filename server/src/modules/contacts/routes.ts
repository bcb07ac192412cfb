import type { App } from '../../http/types.js';
import { caller } from '../../http/types.js';
import { requestOrigin } from '../../http/origin.js';
import { refuseGuests } from '../users/actor.js';
import { ContactsService } from './service.js';
import { AddContactBody, ContactIdParams, EditContactBody } from './schemas.js';

export async function contactsRoutes(app: App): Promise<void> {
  const contacts = new ContactsService(app.services);

  // Guests read and write in their chats but keep no contacts (docs/api.md): every route here refuses them.
  app.addHook('preHandler', async (request) => {
    refuseGuests(caller(request));
  });

  app.get('/user/contacts', async (request) => ({ contacts: await contacts.list(caller(request).id) }));

  app.post('/user/contacts/add', { schema: { body: AddContactBody }, config: { rateLimit: 'lookups' } }, async (request) =>
    contacts.add(caller(request).id, request.body, requestOrigin(request)),
  );

  app.put('/user/contacts/edit', { schema: { body: EditContactBody } }, async (request) => ({
    contact: await contacts.rename(caller(request).id, request.body.user_id, request.body.name),
  }));

  app.delete('/user/contacts/:id', { schema: { params: ContactIdParams } }, async (request) => {
    await contacts.remove(caller(request).id, request.params.id);
    return { deleted: true };
  });
}
