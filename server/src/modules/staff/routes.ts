import type { App } from '../../http/types.js';
import { caller } from '../../http/types.js';
import { requestOrigin } from '../../http/origin.js';
import { EmployeesService } from './employees.js';
import { CreateManagerBody, EditManagerBody, EmployeesQuery, MuteBody, OwnPasswordBody, RoleBody, UserIdParams } from './schemas.js';

/** Staff passwords and the employees screen (docs/api.md, issue 4). `PUT /user/block` lives with the users routes. */
export async function staffRoutes(app: App): Promise<void> {
  const employees = new EmployeesService(app.services);

  app.post('/user/password', { schema: { body: OwnPasswordBody } }, async (request) => ({
    user: await employees.setOwnPasswords(caller(request).id, request.body, request.ip, requestOrigin(request)),
  }));

  app.get('/user/all', { schema: { querystring: EmployeesQuery }, config: { rateLimit: 'lookups' } }, async (request) => ({
    users: await employees.list(caller(request).id, request.query),
  }));

  app.post('/user/manager', { schema: { body: CreateManagerBody } }, async (request, reply) =>
    reply.code(201).send(await employees.createManager(caller(request).id, request.body)),
  );

  app.put('/user/manager', { schema: { body: EditManagerBody } }, async (request) => employees.editManager(caller(request).id, request.body));

  app.put('/user/role', { schema: { body: RoleBody } }, async (request) => ({
    user: await employees.setRole(caller(request).id, request.body.user_id, request.body.role_id),
  }));

  app.put('/user/mute', { schema: { body: MuteBody } }, async (request) => ({
    user: await employees.setMuted(caller(request).id, request.body.user_id, request.body.isMuted),
  }));

  app.delete('/user/:id', { schema: { params: UserIdParams } }, async (request) => {
    await employees.remove(caller(request).id, request.params.id);
    return { deleted: true };
  });
}
