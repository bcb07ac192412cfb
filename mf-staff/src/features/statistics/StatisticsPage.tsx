import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, statsApi, useSettingsStore, type TotalStats } from '@messenger/shared';

/** The periods offered, in days. */
const PERIODS = [1, 7, 30, 90, 365] as const;
const DEFAULT_PERIOD = 30;

type Load = { state: 'loading' } | { state: 'failed'; error: string } | { state: 'loaded'; stats: TotalStats };

const METRICS: Array<{ key: keyof Omit<TotalStats, 'days'>; label: string }> = [
  { key: 'new_users', label: 'statistics.newUsers' },
  { key: 'secret_chats', label: 'statistics.secretChats' },
  { key: 'calls', label: 'statistics.calls' },
  { key: 'managers', label: 'statistics.managers' },
  { key: 'users_per_manager', label: 'statistics.usersPerManager' },
];

/** Spec §2 statistics for admins: the counts of the chosen period, from `GET /api/stats/total?days=`. */
export function StatisticsPage() {
  const { t } = useTranslation('staff');
  const language = useSettingsStore((state) => state.language);
  const [days, setDays] = useState<number>(DEFAULT_PERIOD);
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let cancelled = false;
    statsApi
      .total(days)
      .then((stats) => !cancelled && setLoad({ state: 'loaded', stats }))
      .catch((error: unknown) => !cancelled && setLoad({ state: 'failed', error: errorText(error, 'staff:statistics.loadFailed') }));
    return () => {
      cancelled = true;
    };
  }, [days, attempt]);

  const number = new Intl.NumberFormat(language, { maximumFractionDigits: 2 });
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
      )}
    </div>
  );
}
