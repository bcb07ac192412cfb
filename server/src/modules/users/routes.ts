import type { App } from '../../http/types.js';
import { caller } from '../../http/types.js';
import { requestOrigin } from '../../http/origin.js';
import { bearerToken } from '../../http/auth-hook.js';
import { UsersService } from './service.js';
import { refuseGuests } from './actor.js';
import { GuestsService } from './guests.js';
import { BlockUserBody, EditUserBody, FindUserQuery, LinkQuery, PhoneBody, UserIdParams, VerifyPhoneBody } from './schemas.js';

export async function usersRoutes(app: App): Promise<void> {
  const users = new UsersService(app.services);
  const guests = new GuestsService(app.services);

  app.get('/user', async (request) => ({ user: await users.me(caller(request).id, requestOrigin(request)) }));

  app.put('/user/edit', { schema: { body: EditUserBody } }, async (request) => ({
    user: await users.edit(caller(request).id, request.body, requestOrigin(request)),
  }));

  app.get('/user/find', { schema: { querystring: FindUserQuery }, config: { rateLimit: 'lookups' } }, async (request) => {
    const me = caller(request);
    refuseGuests(me); // a guest has no phone of their own yet: no walking the directory
    return { users: await users.find(me.id, me.role, request.query.query) };
  });

  // Public: a visitor who is not signed in becomes a guest. A bearer token, when sent, must be valid.
  app.post('/user/link', { config: { public: true }, schema: { querystring: LinkQuery } }, async (request) =>
    guests.followLink(request.query.code, bearerToken(request), request.ip, requestOrigin(request)),
  );

  app.get('/user/:id/presence', { schema: { params: UserIdParams } }, async (request) => ({
    presence: await app.services.presence.view(caller(request).id, request.params.id),
  }));

  app.put('/user/phone', { schema: { body: PhoneBody } }, async (request) =>
    guests.requestPhone(caller(request).id, request.body.phone, request.ip),
  );

  app.put('/user/phone/verify', { schema: { body: VerifyPhoneBody } }, async (request) =>
    guests.verifyPhone(caller(request).id, request.body.phone, request.body.code, requestOrigin(request)),
  );

  app.put('/user/block', { schema: { body: BlockUserBody } }, async (request) => ({
    user: await users.setBlocked(caller(request).id, request.body.user_id, request.body.blocked),
  }));

  app.get('/user/:id', { schema: { params: UserIdParams } }, async (request) => {
    return { user: await users.profile(caller(request).id, request.params.id) };
  });
}
