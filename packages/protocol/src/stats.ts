import Type, { type Static } from 'typebox';
import { Int, Nullable } from './common.js';

/** One UTC day of the period. */
export const DayFigures = Type.Object({
  date: Type.String(),
  new_users: Type.Integer(),
  calls: Type.Integer(),
  secret_chats: Type.Integer(),
});

/** The whole product over the last `days` days (admins). The totals are the series' sums. */
export const TotalStats = Type.Object({
  days: Type.Integer(),
  secret_chats: Type.Integer(),
  calls: Type.Integer(),
  new_users: Type.Integer(),
  managers: Type.Integer(),
  users_per_manager: Type.Number(),
  /** One entry per day of the period (UTC), zeros included. */
  series: Type.Array(DayFigures),
});
export type TotalStats = Static<typeof TotalStats>;

/** One manager's figures over the period. */
export const ManagerStats = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  username: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  invited_users: Type.Integer(),
  secret_chats: Type.Integer(),
  calls: Type.Integer(),
});
export type ManagerStats = Static<typeof ManagerStats>;

export const StatsQuery = Type.Object({ days: Type.Optional(Int({ minimum: 1, maximum: 3650, default: 30 })) });

/** Statistics for admins (spec §6: role 2 and above). */
export const statsRoutes = {
  total: { method: 'GET', url: '/stats/total', querystring: StatsQuery, response: TotalStats },
  managers: { method: 'GET', url: '/stats/managers', querystring: StatsQuery, response: Type.Object({ managers: Type.Array(ManagerStats) }) },
} as const;
