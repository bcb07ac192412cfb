import type { ManagerStats, TotalStats } from '@messenger/protocol';
import type { Queryable } from '../../db/index.js';
import { Role } from '../users/actor.js';
import { joined } from '../staff/model.js';

/** The figures as the contract has them (packages/protocol). */
export type Totals = TotalStats;
export type ManagerFigures = ManagerStats;

/**
 * The period of `days` days: whole UTC days, today included, so the daily series and the totals are the same
 * figures (the totals are the series' sums). `$1` is the number of days.
 */
const SINCE = `((date_trunc('day', now() AT TIME ZONE 'UTC') - make_interval(days => $1 - 1)) AT TIME ZONE 'UTC')`;
const DAY = (column: string) => `to_char((${column} AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD')`;

/**
 * What is counted (docs/api.md, issue 4):
 * - new users: accounts created in the period that are real (no guests) and still there (not deleted);
 * - secret chats: secret groups created in the period that still exist (a deleted chat is gone with its rows);
 * - calls: calls started in the period, in chats that still exist;
 * - managers: people whose role is 1 now and who are not deleted; users per manager: new users (as above) who came
 *   through a current manager's invite link, divided by the number of managers.
 */
export class StatsService {
  constructor(private readonly db: Queryable) {}

  async total(days: number): Promise<Totals> {
    // The period is fixed once, from the first statement's today: the later statements, each with its own now(),
    // would otherwise count a day the series does not have when a request straddles midnight (UTC).
    const [today] = await this.db.query<{ today: string }>(`SELECT ${DAY('now()')} AS today`);
    const dates = datesBack(today!.today, days);
    const period = [`${dates[0]}T00:00:00Z`, new Date(Date.parse(`${today!.today}T00:00:00Z`) + 86_400_000).toISOString()];
    const IN_PERIOD = (column: string) => `${column} >= $1::timestamptz AND ${column} < $2::timestamptz`;
    const perDay = async (sql: string): Promise<Map<string, number>> => {
      const rows = await this.db.query<{ day: string; count: number }>(sql, period);
      return new Map(rows.map((row) => [row.day, Number(row.count)]));
    };
    const users = await perDay(
      `SELECT ${DAY('u.created_at')} AS day, count(*) AS count FROM users u
        WHERE ${IN_PERIOD('u.created_at')} AND ${joined('u')} GROUP BY 1`,
    );
    const calls = await perDay(`SELECT ${DAY('k.created_at')} AS day, count(*) AS count FROM calls k WHERE ${IN_PERIOD('k.created_at')} GROUP BY 1`);
    const secret = await perDay(
      `SELECT ${DAY('c.created_at')} AS day, count(*) AS count FROM chats c WHERE c.is_secret AND ${IN_PERIOD('c.created_at')} GROUP BY 1`,
    );
    const [staff] = await this.db.query<{ managers: number; users_by_managers: number }>(
      `SELECT (SELECT count(*) FROM users WHERE role = $3 AND NOT deleted) AS managers,
              (SELECT count(*) FROM users u JOIN users m ON m.id = u.invited_by
                WHERE m.role = $3 AND NOT m.deleted AND ${joined('u')} AND ${IN_PERIOD('u.created_at')}) AS users_by_managers`,
      [...period, Role.manager],
    );
    const series = dates.map((date) => ({
      date,
      new_users: users.get(date) ?? 0,
      calls: calls.get(date) ?? 0,
      secret_chats: secret.get(date) ?? 0,
    }));
    const sum = (key: 'new_users' | 'calls' | 'secret_chats') => series.reduce((total, day) => total + day[key], 0);
    const managers = Number(staff!.managers);
    const byManagers = Number(staff!.users_by_managers);
    return {
      days,
      secret_chats: sum('secret_chats'),
      calls: sum('calls'),
      new_users: sum('new_users'),
      managers,
      // Users brought in by managers during the period, per manager; 0 when there are no managers.
      users_per_manager: managers === 0 ? 0 : Math.round((byManagers / managers) * 100) / 100,
      series,
    };
  }

  /** Every current manager (role 1, not deleted) with what they did in the period; most invited first. */
  async managers(days: number): Promise<ManagerFigures[]> {
    const rows = await this.db.query<ManagerFigures & Record<string, unknown>>(
      `SELECT m.id, m.name, m.username, m.phone,
              (SELECT count(*) FROM users u WHERE u.invited_by = m.id AND ${joined('u')} AND u.created_at >= ${SINCE}) AS invited_users,
              (SELECT count(*) FROM chats c WHERE c.owner_id = m.id AND c.is_secret AND c.created_at >= ${SINCE}) AS secret_chats,
              (SELECT count(*) FROM calls k WHERE k.caller_id = m.id AND k.created_at >= ${SINCE}) AS calls
         FROM users m
        WHERE m.role = $2 AND NOT m.deleted
        ORDER BY invited_users DESC, secret_chats DESC, calls DESC, lower(coalesce(nullif(m.name, ''), m.username, '')), m.id`,
      [days, Role.manager],
    );
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      username: row.username,
      phone: row.phone,
      invited_users: Number(row.invited_users),
      secret_chats: Number(row.secret_chats),
      calls: Number(row.calls),
    }));
  }
}

/** `days` dates ending with `today` (YYYY-MM-DD, UTC), oldest first. */
function datesBack(today: string, days: number): string[] {
  const end = Date.parse(`${today}T00:00:00Z`);
  return Array.from({ length: days }, (_, index) => new Date(end - (days - 1 - index) * 86_400_000).toISOString().slice(0, 10));
}
