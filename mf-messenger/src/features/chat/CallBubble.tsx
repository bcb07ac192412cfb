import { useTranslation } from 'react-i18next';
import { useAuthStore, type ChatMessage } from '@messenger/shared';
import { PhoneIcon } from './CallIcon';

/** How a call ended, as far as the message knows it. */
export interface CallOutcome {
  status: 'ended' | 'missed' | 'rejected' | 'busy';
  /** From the first answer to the end, for a call someone answered. */
  durationSeconds: number | null;
}

const STATUSES: ReadonlyArray<CallOutcome['status']> = ['ended', 'missed', 'rejected', 'busy'];

/**
 * The outcome a `call` message carries, or null while it is unknown (the call still runs, or the server did not
 * say). Read from `meta.call_status` and `meta.duration_seconds`; anything else there is ignored.
 */
export function callOutcomeOf(message: Pick<ChatMessage, 'meta'>): CallOutcome | null {
  const meta = message.meta as { call_status?: unknown; duration_seconds?: unknown } | null | undefined;
  const status = meta?.call_status;
  if (typeof status !== 'string' || !STATUSES.includes(status as CallOutcome['status'])) return null;
  const duration = meta?.duration_seconds;
  return {
    status: status as CallOutcome['status'],
    durationSeconds: typeof duration === 'number' && Number.isFinite(duration) && duration >= 0 ? Math.floor(duration) : null,
  };
}

const pad = (value: number) => String(value).padStart(2, '0');

/** A call's length as the call window's timer shows it (spec §2): mm:ss, and hh:mm:ss from one hour on. */
export function formatCallLength(totalSeconds: number): string {
  const total = Math.max(0, Math.floor(totalSeconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return hours > 0 ? `${pad(hours)}:${pad(minutes)}:${pad(seconds)}` : `${pad(minutes)}:${pad(seconds)}`;
}

/**
 * A `call` message: a handset, the direction from the viewer's side (my own call is outgoing), and, once known,
 * how it ended — missed (no answer, for the caller), declined, busy, or how long it lasted.
 */
export function CallContent({ message, outcome = callOutcomeOf(message) }: { message: ChatMessage; outcome?: CallOutcome | null }) {
  const { t } = useTranslation('messenger');
  const me = useAuthStore((state) => state.user?.id ?? 0);
  const outgoing = message.sender_id === me;
  const direction = outgoing ? t('chat.callOutgoing') : t('chat.callIncoming');
  const result = outcomeText(outcome, outgoing, t);
  const failed = outcome !== null && outcome.status !== 'ended';
  return (
    <div
      className={failed ? 'msg-document msg-call msg-call-failed' : 'msg-document msg-call'}
      role="group"
      aria-label={result ? t('chat.callSummary', { direction, outcome: result }) : direction}
    >
      <span className="msg-document-icon">
        <PhoneIcon size={28} />
      </span>
      <span className="msg-document-text">
        <span className="msg-document-name">
          <span aria-hidden="true">{outgoing ? '↗ ' : '↙ '}</span>
          {direction}
        </span>
        {result && <span className="msg-document-size">{result}</span>}
      </span>
    </div>
  );
}

function outcomeText(outcome: CallOutcome | null, outgoing: boolean, t: (key: string) => string): string | null {
  if (!outcome) return null;
  switch (outcome.status) {
    case 'missed':
      return outgoing ? t('chat.callNoAnswer') : t('chat.callMissed');
    case 'rejected':
      return t('chat.callDeclined');
    case 'busy':
      // The person called was in another call: busy for the caller, a missed call for them.
      return outgoing ? t('chat.callBusy') : t('chat.callMissed');
    case 'ended':
      return outcome.durationSeconds === null ? null : formatCallLength(outcome.durationSeconds);
  }
}
