import { useEffect, useState } from 'react';
import type { TFunction } from 'i18next';
import { useNavigate } from '@messenger/router';
import { useTranslation } from 'react-i18next';
import {
  Avatar,
  callsApi,
  chatDisplay,
  config,
  displayName,
  errorText,
  eventBus,
  formatCallDuration,
  formatListTime,
  matchesSearch,
  unansweredCall,
  useAuthStore,
  useChatsStore,
  useContactsStore,
  useSearchStore,
  useSettingsStore,
  useUsersStore,
  type CallRecord,
} from '@messenger/shared';

type Load = { state: 'loading' } | { state: 'failed'; error: string } | { state: 'loaded'; calls: CallRecord[] };

/**
 * The Calls tab (spec §2): each call with its chat's name, a direction arrow, the time, how it went (its length,
 * or missed, declined, busy), and red when it never connected; a click opens the chat. An empty history is shown
 * as such. The list reloads when a call starts, and shortly after one ends (spec §4, §9).
 */
export function CallsTab() {
  const { t } = useTranslation('calls');
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let cancelled = false;
    callsApi
      .history()
      .then((calls) => !cancelled && setLoad({ state: 'loaded', calls }))
      .catch(
        (error: unknown) =>
          // A failed background reload keeps the list on screen; only the first load reports it.
          !cancelled && setLoad((current) => (current.state === 'loaded' ? current : { state: 'failed', error: errorText(error, 'calls:calls.loadFailed') })),
      );
    return () => {
      cancelled = true;
    };
  }, [attempt]);
  useEffect(() => {
    const timers = new Set<ReturnType<typeof setTimeout>>();
    const reload = () => setAttempt((n) => n + 1);
    const offCall = eventBus.on('call', reload);
    const offHang = eventBus.on('hang', () => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        reload();
      }, config.historyRefreshAfterHangMs);
      timers.add(timer);
    });
    return () => {
      offCall();
      offHang();
      for (const timer of timers) clearTimeout(timer);
    };
  }, []);
  const retry = () => {
    setLoad({ state: 'loading' });
    setAttempt((n) => n + 1);
  };

  if (load.state === 'loading') return <p className="ui-empty">{t('common:loading')}</p>;
  if (load.state === 'failed') {
    return (
      <div className="ui-empty" role="alert">
        <p>{load.error}</p>
        <button type="button" className="ui-button" onClick={retry}>
          {t('common:actions.retry')}
        </button>
      </div>
    );
  }
  if (load.calls.length === 0) return <p className="ui-empty">{t('calls.empty')}</p>;
  return <CallList calls={load.calls} />;
}

function CallList({ calls }: { calls: CallRecord[] }) {
  const { t } = useTranslation('calls');
  const navigate = useNavigate();
  const me = useAuthStore((state) => state.user?.id ?? 0);
  const chats = useChatsStore((state) => state.chats);
  const contacts = useContactsStore((state) => state.contacts);
  const profiles = useUsersStore((state) => state.profiles);
  const language = useSettingsStore((state) => state.language);
  const query = useSearchStore((state) => state.query);

  const rows = calls
    .map((call) => {
      const chat = chats.find((candidate) => candidate.id === call.chat_id);
      const name = chat ? chatDisplay(chat, me, contacts, profiles).name : displayName({ chat_name: call.chat_name });
      return { call, name };
    })
    .filter((row) => matchesSearch(query, row.name));

  return (
    <ul className="calls-list" aria-label={t('calls.listLabel')}>
      {rows.map(({ call, name }) => {
        const direction = call.direction === 'outgoing' ? t('calls.outgoing') : t('calls.incoming');
        const result = outcome(call, t);
        return (
          <li key={call.id}>
            <button
              type="button"
              className={call.connected ? 'calls-row' : 'calls-row calls-missed'}
              // Named by what it shows (WCAG 2.5.3): who, which way, how it went, when; the action is its tooltip.
              title={t('calls.open', { name })}
              onClick={() => navigate(`/${call.chat_id}`)}
            >
              <Avatar name={name} path={call.chat_avatar} group={call.chat_type === 'group'} size={44} />
              <span className="calls-main">
                <span className="calls-name">{name}</span>
                <span className="calls-detail">
                  <span aria-hidden="true" className="calls-arrow">
                    {call.direction === 'outgoing' ? '↗' : '↙'}
                  </span>
                  {direction}
                  {result && <span className="calls-outcome">{` · ${result}`}</span>}
                </span>
              </span>
              <time dateTime={call.created_at} className="calls-time">
                {formatListTime(call.created_at, language)}
              </time>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * How a call went, from my side: its length once an answered call is over; missed (no answer, when I called),
 * declined or busy for one that never connected; 'Not connected' when the server does not say why.
 */
function outcome(call: CallRecord, t: TFunction): string | null {
  if (call.connected) return typeof call.duration_seconds === 'number' ? formatCallDuration(call.duration_seconds * 1000) : null;
  const unanswered = unansweredCall(call.status, call.direction === 'outgoing');
  return unanswered ? t(`calls.${unanswered}`) : t('calls.notConnected');
}
