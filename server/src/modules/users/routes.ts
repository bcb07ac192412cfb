import type { App } from '../../http/types.js';
import { caller } from '../../http/types.js';
import { requestOrigin } from '../../http/origin.js';
import { UsersService } from './service.js';
import { EditUserBody, FindUserQuery, UserIdParams } from './schemas.js';

export async function usersRoutes(app: App): Promise<void> {
  const users = new UsersService(app.services);

  app.get('/user', async (request) => ({ user: await users.me(caller(request).id, requestOrigin(request)) }));

  app.put('/user/edit', { schema: { body: EditUserBody } }, async (request) => ({
    user: await users.edit(caller(request).id, request.body, requestOrigin(request)),
  }));

  app.get('/user/find', { schema: { querystring: FindUserQuery } }, async (request) => {
    const me = caller(request);
    return { users: await users.find(me.id, me.role, request.query.query) };
  });

  app.get('/user/:id', { schema: { params: UserIdParams } }, async (request) => {
    const me = caller(request);
    return { user: await users.profile(me.id, me.role, request.params.id) };
  });
}
