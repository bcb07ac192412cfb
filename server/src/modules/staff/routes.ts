import type { App } from '../../http/types.js';
import { contractSchema } from '../../http/contract.js';
import { caller } from '../../http/types.js';
import { requestOrigin } from '../../http/origin.js';
import { EmployeesService } from './employees.js';
import { staffRoutes as routes } from './schemas.js';

/** Staff passwords and the employees screen (docs/api.md, issue 4). `PUT /user/block` lives with the users routes. */
export async function staffRoutes(app: App): Promise<void> {
  const employees = new EmployeesService(app.services);

  // Each answer is serialized by its schema: a field the contract does not name never leaves the server.
  app.post(routes.ownPasswords.url, { schema: contractSchema(routes.ownPasswords) }, async (request) => ({
    user: await employees.setOwnPasswords(caller(request).id, request.body, request.ip, requestOrigin(request)),
  }));

  app.get(
    routes.list.url,
    { schema: contractSchema(routes.list), config: { rateLimit: 'lookups' } },
    async (request) => employees.list(caller(request).id, request.query),
  );

  app.post(routes.createManager.url, { schema: contractSchema(routes.createManager) }, async (request, reply) =>
    reply.code(201).send(await employees.createManager(caller(request).id, request.body)),
  );

  app.put(routes.edit.url, { schema: contractSchema(routes.edit) }, async (request) =>
    employees.editManager(caller(request).id, request.body),
  );

  app.put(routes.setRole.url, { schema: contractSchema(routes.setRole) }, async (request) => ({
    user: await employees.setRole(caller(request).id, request.body.user_id, request.body.role_id),
  }));

  app.put(routes.setMuted.url, { schema: contractSchema(routes.setMuted) }, async (request) => ({
    user: await employees.setMuted(caller(request).id, request.body.user_id, request.body.isMuted),
  }));

  app.delete(routes.remove.url, { schema: contractSchema(routes.remove) }, async (request) => {
    await employees.remove(caller(request).id, request.params.id, requestOrigin(request));
    return { deleted: true };
  });
}
