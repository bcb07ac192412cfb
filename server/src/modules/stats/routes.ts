import Type from 'typebox';
import type { App } from '../../http/types.js';
import { caller } from '../../http/types.js';
import { Int } from '../../http/schema-types.js';
import { loadAdmin } from '../users/actor.js';
import { StatsService } from './service.js';

const StatsQuery = Type.Object({ days: Type.Optional(Int({ minimum: 1, maximum: 3650, default: 30 })) });

/** Statistics for admins (spec §6: role 2 and above), read from the database at each call. */
export async function statsRoutes(app: App): Promise<void> {
  const stats = new StatsService(app.services.db);

  app.get('/stats/total', { schema: { querystring: StatsQuery } }, async (request) => {
    // The role is read from the database, not the token, so a demotion takes effect at once.
    await loadAdmin(app.services.db, caller(request).id);
    return stats.total(request.query.days ?? 30);
  });

  app.get('/stats/managers', { schema: { querystring: StatsQuery } }, async (request) => {
    await loadAdmin(app.services.db, caller(request).id);
    return { managers: await stats.managers(request.query.days ?? 30) };
  });
}
