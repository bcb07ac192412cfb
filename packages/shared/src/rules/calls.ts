const pad = (value: number) => String(value).padStart(2, '0');

/** A call's length (spec §2, the header timer; also history and call messages): mm:ss, hh:mm:ss from one hour. */
export function formatCallDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return hours > 0 ? `${pad(hours)}:${pad(minutes)}:${pad(seconds)}` : `${pad(minutes)}:${pad(seconds)}`;
}

/** How a call that never connected went, as one side sees it. */
export type UnansweredCall = 'noAnswer' | 'missed' | 'declined' | 'busy';

/**
 * The word for a call that never connected, from one side: the caller's unanswered call is "no answer", the
 * other's "missed"; a call to someone in another call is "busy" for the caller and "missed" for them. Null for
 * a call that connected (or a status this client does not know).
 */
export function unansweredCall(status: string | null | undefined, outgoing: boolean): UnansweredCall | null {
  switch (status) {
    case 'missed':
      return outgoing ? 'noAnswer' : 'missed';
    case 'rejected':
      return 'declined';
    case 'busy':
      return outgoing ? 'busy' : 'missed';
    default:
      return null;
  }
}
