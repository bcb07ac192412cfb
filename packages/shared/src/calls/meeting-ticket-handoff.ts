import type { MeetingTicket } from '../model/types';

// An incoming call's ticket is fetched while it rings (stores/call.ts), and the tab that accepts hands it to the
// meeting tab it opens: a tab opened by `window.open` starts with a copy of its opener's sessionStorage (HTML's
// "copy the session storage" of an auxiliary browsing context), so the meeting tab reads it at once instead of
// asking the server again — its socket opens ~45 ms sooner (the call set-up bench's "ticket" stage). The opener
// removes it right after opening the tab, the meeting tab as it starts (used or not), and signing out removes it.
// Like the module that reads it (meeting-head-start.ts), this one lives in the shell's entry as well as in the
// shared package, so it keeps nothing in module state.

const KEY = 'messenger.meeting-ticket';
/**
 * A handed ticket is used only this long after it was fetched: a call rings for 60 s, and the tab reads it within
 * a second of being opened. The server's ticket lives longer (its TURN credentials may not).
 */
export const HANDED_TICKET_MAX_AGE_MS = 90_000;

interface HandedTicket {
  chatId: number;
  /** Whose it is: a tab signed in as someone else never uses it. */
  userId: number;
  ticket: MeetingTicket;
  /** Wall-clock ms after which it is not used. */
  usableUntil: number;
}

/**
 * Puts an accepted call's ticket where the meeting tab about to be opened finds it; call right before
 * `window.open`, and `withdrawMeetingTicket` right after (the new tab already has its copy).
 */
export function handOverMeetingTicket(chatId: number, userId: number, ticket: MeetingTicket, fetchedAt: number): void {
  const usableUntil = Math.min(fetchedAt + HANDED_TICKET_MAX_AGE_MS, fetchedAt + ticket.expires_in * 1000);
  const handed: HandedTicket = { chatId, userId, ticket, usableUntil };
  try {
    sessionStorage.setItem(KEY, JSON.stringify(handed));
  } catch {
    // Storage full or refused: the meeting tab fetches its ticket itself.
  }
}

/** The opener keeps no copy once the meeting tab has been opened. */
export function withdrawMeetingTicket(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // nothing was kept
  }
}

/**
 * The meeting tab takes the ticket its opener handed over, once: only for this page's chat and room and this person,
 * and within seconds of its fetch; null otherwise (the tab then fetches one). Read or not, it is gone afterwards.
 */
export function takeHandedMeetingTicket(chatId: number, roomId: string, userId: number, now = Date.now()): MeetingTicket | null {
  let handed: HandedTicket | null = null;
  try {
    const raw = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    handed = raw ? (JSON.parse(raw) as HandedTicket) : null;
  } catch {
    return null;
  }
  if (!handed || handed.chatId !== chatId || handed.userId !== userId || handed.ticket?.room_id !== roomId || !(handed.usableUntil > now)) {
    return null;
  }
  return handed.ticket;
}
