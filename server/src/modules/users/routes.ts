import type { App } from '../../http/types.js';
import { contractSchema } from '../../http/contract.js';
import { caller } from '../../http/types.js';
import { requestOrigin } from '../../http/origin.js';
import { bearerToken } from '../../http/auth-hook.js';
import { UsersService } from './service.js';
import { refuseGuests } from './actor.js';
import { GuestsService } from './guests.js';
import { chatRoutes, userRoutes as routes } from './schemas.js';

export async function usersRoutes(app: App): Promise<void> {
  const users = new UsersService(app.services);
  const guests = new GuestsService(app.services);

  // Each answer is serialized by its schema: a field the contract does not name never leaves the server.
  app.get(routes.me.url, { schema: contractSchema(routes.me) }, async (request) => ({
    user: await users.me(caller(request).id, requestOrigin(request)),
  }));

  app.put(routes.edit.url, { schema: contractSchema(routes.edit) }, async (request) => ({
    user: await users.edit(caller(request).id, request.body, requestOrigin(request)),
  }));

  app.get(routes.find.url, { schema: contractSchema(routes.find), config: { rateLimit: 'lookups' } }, async (request) => {
    const me = caller(request);
    refuseGuests(me); // a guest has no phone of their own yet: no walking the directory
    return { users: await users.find(me.id, me.role, request.query.query) };
  });

  // Public: a visitor who is not signed in becomes a guest. A bearer token, when sent, must be valid.
  const link = chatRoutes.link;
  app.post(link.url, { config: { public: true }, schema: contractSchema(link) }, async (request) =>
    guests.followLink(request.query.code, bearerToken(request), request.ip, requestOrigin(request)),
  );

  app.get(routes.presence.url, { schema: contractSchema(routes.presence) }, async (request) => ({
    presence: await app.services.presence.view(caller(request).id, request.params.id),
  }));

  app.put(routes.setPhone.url, { schema: contractSchema(routes.setPhone) }, async (request) =>
    guests.requestPhone(caller(request).id, request.body.phone, request.ip),
  );

  app.put(routes.verifyPhone.url, { schema: contractSchema(routes.verifyPhone) }, async (request) =>
    guests.verifyPhone(caller(request).id, request.body.phone, request.body.code, requestOrigin(request)),
  );

  app.put(routes.block.url, { schema: contractSchema(routes.block) }, async (request) => ({
    user: await users.setBlocked(caller(request).id, request.body.user_id, request.body.blocked),
  }));

  app.get(routes.profile.url, { schema: contractSchema(routes.profile) }, async (request) => {
    return { user: await users.profile(caller(request).id, request.params.id) };
  });
}
