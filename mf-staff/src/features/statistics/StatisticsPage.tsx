import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, usePhoneFormatter, statsApi, useSettingsStore, type ManagerStats, type TotalStats } from '@messenger/shared';
import { TrendChart, type TrendSeries } from './TrendChart';

/** The periods offered, in days. */
const PERIODS = [1, 7, 30, 90, 365] as const;
const DEFAULT_PERIOD = 30;

type Load = { state: 'loading' } | { state: 'failed'; error: string } | { state: 'loaded'; stats: TotalStats; managers: ManagerStats[] };

const METRICS: Array<{ key: keyof Omit<TotalStats, 'days' | 'series'>; label: string }> = [
  { key: 'new_users', label: 'statistics.newUsers' },
  { key: 'secret_chats', label: 'statistics.secretChats' },
  { key: 'calls', label: 'statistics.calls' },
  { key: 'managers', label: 'statistics.managers' },
  { key: 'users_per_manager', label: 'statistics.usersPerManager' },
];

/**
 * Spec §2 statistics for admins: the figures of the chosen period, their daily trend, and the managers'
 * leaderboard (`GET /api/stats/total`, `GET /api/stats/managers`).
 */
export function StatisticsPage() {
  const formatPhone = usePhoneFormatter();
  const { t } = useTranslation('staff');
  const language = useSettingsStore((state) => state.language);
  const [days, setDays] = useState<number>(DEFAULT_PERIOD);
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let cancelled = false;
    Promise.all([statsApi.total(days), statsApi.managers(days)])
      .then(([stats, managers]) => !cancelled && setLoad({ state: 'loaded', stats, managers }))
      .catch((error: unknown) => !cancelled && setLoad({ state: 'failed', error: errorText(error, 'staff:statistics.loadFailed') }));
    return () => {
      cancelled = true;
    };
  }, [days, attempt]);

  const number = new Intl.NumberFormat(language, { maximumFractionDigits: 2 });
  const dates = useMemo(() => (load.state === 'loaded' ? load.stats.series.map((point) => point.date) : []), [load]);
  const trend: TrendSeries[] = useMemo(
    () =>
      load.state === 'loaded'
        ? [
            { label: t('statistics.newUsers'), values: load.stats.series.map((point) => point.new_users), color: 'var(--color-accent)' },
            { label: t('statistics.calls'), values: load.stats.series.map((point) => point.calls), color: 'var(--color-success)' },
            { label: t('statistics.secretChats'), values: load.stats.series.map((point) => point.secret_chats), color: 'var(--color-warning)' },
          ]
        : [],
    [load, t],
  );

  return (
    <div className="staff-page">
      <header className="staff-header">
        <h1>{t('statistics.title')}</h1>
        <label className="ui-field staff-period">
          <span>{t('statistics.period')}</span>
          <select
            value={days}
            onChange={(event) => {
              setLoad({ state: 'loading' });
              setDays(Number(event.target.value));
            }}
          >
            {PERIODS.map((period) => (
              <option key={period} value={period}>
                {t('statistics.days', { count: period })}
              </option>
            ))}
          </select>
        </label>
      </header>
      {load.state === 'loading' && <p role="status">{t('common:loading')}</p>}
      {load.state === 'failed' && (
        <div role="alert">
          <p>{load.error}</p>
          <button
            type="button"
            className="ui-button"
            onClick={() => {
              setLoad({ state: 'loading' });
              setAttempt((n) => n + 1);
            }}
          >
            {t('common:actions.retry')}
          </button>
        </div>
      )}
      {load.state === 'loaded' && (
        <>
          <section aria-label={t('statistics.metrics')}>
            <dl className="staff-metrics">
              {METRICS.map(({ key, label }) => (
                <div key={key} className="staff-metric">
                  <dt>{t(label)}</dt>
                  <dd>{number.format(load.stats[key])}</dd>
                </div>
              ))}
            </dl>
          </section>
          <section className="staff-card" aria-labelledby="trend-title">
            <h2 id="trend-title">{t('statistics.trend')}</h2>
            <TrendChart
              dates={dates}
              series={trend}
              label={t('statistics.trendLabel', { count: days })}
              language={language}
              dateLabel={t('statistics.date')}
            />
            <details>
              <summary>{t('statistics.asTable')}</summary>
              <table className="staff-table">
                <thead>
                  <tr>
                    <th scope="col">{t('statistics.date')}</th>
                    {trend.map((line) => (
                      <th key={line.label} scope="col">
                        {line.label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {dates.map((date, index) => (
                    <tr key={date}>
                      <th scope="row">{new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`))}</th>
                      {trend.map((line) => (
                        <td key={line.label}>{number.format(line.values[index] ?? 0)}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
          </section>
          <section className="staff-card" aria-labelledby="leaderboard-title">
            <h2 id="leaderboard-title">{t('statistics.leaderboard')}</h2>
            {load.managers.length === 0 ? (
              <p className="ui-empty">{t('statistics.noManagers')}</p>
            ) : (
              <table className="staff-table">
                <thead>
                  <tr>
                    <th scope="col">#</th>
                    <th scope="col">{t('statistics.manager')}</th>
                    <th scope="col">{t('statistics.invitedUsers')}</th>
                    <th scope="col">{t('statistics.secretChats')}</th>
                    <th scope="col">{t('statistics.calls')}</th>
                  </tr>
                </thead>
                <tbody>
                  {load.managers.map((manager, index) => (
                    <tr key={manager.id}>
                      <td>{index + 1}</td>
                      <th scope="row">{manager.name || (manager.username ? `@${manager.username}` : formatPhone(manager.phone))}</th>
                      <td>{number.format(manager.invited_users)}</td>
                      <td>{number.format(manager.secret_chats)}</td>
                      <td>{number.format(manager.calls)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </>
      )}
    </div>
  );
}
