import type { App } from '../../http/types.js';
import { contractSchema } from '../../http/contract.js';
import { caller } from '../../http/types.js';
import { statsRoutes as routes } from '@messenger/protocol';
import { loadAdmin } from '../users/actor.js';
import { StatsService } from './service.js';

/** Statistics for admins (spec §6: role 2 and above), read from the database at each call. */
export async function statsRoutes(app: App): Promise<void> {
  const stats = new StatsService(app.services.db);

  // Answers serialized by the contract's schemas (packages/protocol).
  app.get(routes.total.url, { schema: contractSchema(routes.total) }, async (request) => {
    // The role is read from the database, not the token, so a demotion takes effect at once.
    await loadAdmin(app.services.db, caller(request).id);
    return stats.total(request.query.days ?? 30);
  });

  app.get(routes.managers.url, { schema: contractSchema(routes.managers) }, async (request) => {
    await loadAdmin(app.services.db, caller(request).id);
    return { managers: await stats.managers(request.query.days ?? 30) };
  });
}
