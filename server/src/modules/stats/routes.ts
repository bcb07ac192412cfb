import Type from 'typebox';
import type { App } from '../../http/types.js';
import { caller } from '../../http/types.js';
import { forbidden } from '../../http/errors.js';
import { refuseGuests } from '../users/actor.js';

/** Statistics are for admins (spec §6: role 2 and above). */
const ADMIN_ROLE = 2;
const MANAGER_ROLE = 1;

const StatsQuery = Type.Object({ days: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650, default: 30 })) });

interface TotalsRow extends Record<string, unknown> {
  secret_chats: number;
  calls: number;
  new_users: number;
  managers: number;
  users_by_managers: number;
}

export async function statsRoutes(app: App): Promise<void> {
  app.get('/stats/total', { schema: { querystring: StatsQuery } }, async (request) => {
    // The role is read from the database, not the token, so a demotion takes effect at once.
    const [me] = await app.services.db.query<{ role: number; deleted: boolean; temporary: boolean }>(
      'SELECT role, deleted, temporary FROM users WHERE id = $1',
      [caller(request).id],
    );
    if (me?.temporary) refuseGuests(me);
    if (!me || me.deleted || me.role < ADMIN_ROLE) throw forbidden('Statistics are for admins', 'admins_only');
    const days = request.query.days ?? 30;
    const [totals] = await app.services.db.query<TotalsRow>(
      `WITH period AS (SELECT now() - make_interval(days => $1) AS since)
       SELECT
         (SELECT count(*) FROM chats, period WHERE is_secret AND created_at >= period.since) AS secret_chats,
         (SELECT count(*) FROM calls, period WHERE created_at >= period.since) AS calls,
         (SELECT count(*) FROM users, period WHERE NOT temporary AND created_at >= period.since) AS new_users,
         (SELECT count(*) FROM users WHERE role = $2 AND NOT deleted) AS managers,
         (SELECT count(*) FROM users u JOIN users m ON m.id = u.invited_by, period
           WHERE m.role = $2 AND NOT m.deleted AND NOT u.temporary AND u.created_at >= period.since) AS users_by_managers`,
      [days, MANAGER_ROLE],
    );
    const t = totals!;
    return {
      days,
      secret_chats: t.secret_chats,
      calls: t.calls,
      new_users: t.new_users,
      managers: t.managers,
      // Users brought in by managers during the period, per manager; 0 when there are no managers.
      users_per_manager: t.managers === 0 ? 0 : Math.round((t.users_by_managers / t.managers) * 100) / 100,
    };
  });
}
