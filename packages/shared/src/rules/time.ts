import { config } from '../config';

const DAY_MS = 86_400_000;

/** Whole calendar days from `earlier` to `later` in local time (a day of a clock change counts as one). */
function calendarDaysBetween(earlier: Date, later: Date): number {
  const day = (date: Date) => Date.UTC(date.getFullYear(), date.getMonth(), date.getDate());
  return Math.round((day(later) - day(earlier)) / DAY_MS);
}

/**
 * Spec §4 time display: today HH:mm (24 h); within the last 7 days the short weekday; the same year the short
 * month and day; otherwise day, month and year. Localised through Intl for the current language.
 */
export function formatListTime(iso: string | null | undefined, language: string, now: Date = new Date()): string {
  if (!iso) return '';
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return '';
  const daysAgo = calendarDaysBetween(time, now);
  if (daysAgo === 0) return new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(time);
  if (daysAgo < config.weekdayWindowDays) return new Intl.DateTimeFormat(language, { weekday: 'short' }).format(time);
  if (time.getFullYear() === now.getFullYear()) return new Intl.DateTimeFormat(language, { month: 'short', day: 'numeric' }).format(time);
  return new Intl.DateTimeFormat(language, { day: 'numeric', month: 'numeric', year: 'numeric' }).format(time);
}

/** Spec §4 detailed time: day, long month, HH:mm. */
export function formatDetailedTime(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    new Date(iso),
  );
}

/** Time of a message bubble: HH:mm. */
export function formatMessageTime(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));
}
