import { useTranslation } from 'react-i18next';
import { formatCallDuration, unansweredCall, useAuthStore, type ChatMessage, type UnansweredCall } from '@messenger/shared';
import { PhoneIcon } from '../CallIcon';

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

const UNANSWERED_KEYS: Record<UnansweredCall, string> = {
  noAnswer: 'chat.callNoAnswer',
  missed: 'chat.callMissed',
  declined: 'chat.callDeclined',
  busy: 'chat.callBusy',
};

function outcomeText(outcome: CallOutcome | null, outgoing: boolean, t: (key: string) => string): string | null {
  if (!outcome) return null;
  if (outcome.status === 'ended') return outcome.durationSeconds === null ? null : formatCallDuration(outcome.durationSeconds * 1000);
  const unanswered = unansweredCall(outcome.status, outgoing);
  return unanswered ? t(UNANSWERED_KEYS[unanswered]) : null;
}
