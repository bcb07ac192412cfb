import { useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from '@messenger/router';
import { useTranslation } from 'react-i18next';
import { ApiError, callsApi, discardMeetingHeadStart, errorText, markCallStage, useCallStore } from '@messenger/shared';
import { CallLayer } from './CallLayer';

type Join = { state: 'joining' } | { state: 'in-call' } | { state: 'over' } | { state: 'failed'; error: string };

/**
 * The meeting room (`/meet/{room_id}?chat={chat_id}`): the page an accepted call opens in a new tab (spec §4).
 * It joins the chat's running call if it is this room's, shows the call window, and says so when the call is over.
 */
export function MeetingPage() {
  const { t } = useTranslation('calls');
  const { roomId = '' } = useParams();
  const [search] = useSearchParams();
  const chatId = Number(search.get('chat'));
  const validChat = Number.isInteger(chatId) && chatId > 0;
  const active = useCallStore((state) => state.active);
  const [join, setJoin] = useState<Join>({ state: 'joining' });

  useEffect(() => {
    let cancelled = false;
    if (!validChat) return;
    markCallStage('meeting-page');
    callsApi
      .running(chatId)
      .then((running) => {
        if (cancelled) return;
        markCallStage('running-checked');
        if (running.room_id !== roomId) {
          discardMeetingHeadStart();
          return setJoin({ state: 'over' });
        }
        useCallStore.getState().joinRoom(chatId, running.call_id, running.room_id);
        setJoin({ state: 'in-call' });
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        discardMeetingHeadStart();
        if (error instanceof ApiError && (error.status === 404 || error.status === 403)) setJoin({ state: 'over' });
        else setJoin({ state: 'failed', error: errorText(error, 'calls:meeting.failed') });
      });
    return () => {
      cancelled = true;
    };
  }, [chatId, roomId, validChat]);

  // The call window closed: the call is over for this tab.
  const over = !validChat || join.state === 'over' || (join.state === 'in-call' && !active);

  return (
    <main className="calls-meeting">
      <h1 className="calls-meeting-title">{t('meeting.title')}</h1>
      {validChat && join.state === 'joining' && <p>{t('meeting.joining')}</p>}
      {join.state === 'failed' && <p role="alert">{join.error}</p>}
      {over && (
        <div className="calls-meeting-over">
          <p role="status">{t('meeting.ended')}</p>
          <Link className="ui-button" to={chatId > 0 ? `/${chatId}` : '/'}>
            {t('meeting.backToChat')}
          </Link>
        </div>
      )}
      <CallLayer />
    </main>
  );
}
