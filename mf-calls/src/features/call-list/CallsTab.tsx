import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import {
  Avatar,
  callsApi,
  chatDisplay,
  displayName,
  errorText,
  formatListTime,
  matchesSearch,
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
 * The Calls tab (spec §2): each call with its chat's name, a direction arrow, the time, and red when it never
 * connected; a click opens the chat. An empty history is shown as such.
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
      .catch((error: unknown) => !cancelled && setLoad({ state: 'failed', error: errorText(error, 'calls:calls.loadFailed') }));
    return () => {
      cancelled = true;
    };
  }, [attempt]);
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
        return (
          <li key={call.id}>
            <button
              type="button"
              className={call.connected ? 'calls-row' : 'calls-row calls-missed'}
              aria-label={`${t('calls.open', { name })}. ${direction}${call.connected ? '' : `, ${t('calls.notConnected')}`}`}
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
