import dayjs from 'dayjs';
import { config } from '../config';

/**
 * Spec §4 time display: today HH:mm (24 h); within the last 7 days the short weekday; the same year the short
 * month and day; otherwise day, month and year. Localised through Intl for the current language.
 */
export function formatListTime(iso: string | null | undefined, language: string, now: Date = new Date()): string {
  if (!iso) return '';
  const time = dayjs(iso);
  const today = dayjs(now);
  if (!time.isValid()) return '';
  if (time.isSame(today, 'day')) return new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(time.toDate());
  if (today.startOf('day').diff(time.startOf('day'), 'day') < config.weekdayWindowDays) {
    return new Intl.DateTimeFormat(language, { weekday: 'short' }).format(time.toDate());
  }
  if (time.isSame(today, 'year')) return new Intl.DateTimeFormat(language, { month: 'short', day: 'numeric' }).format(time.toDate());
  return new Intl.DateTimeFormat(language, { day: 'numeric', month: 'numeric', year: 'numeric' }).format(time.toDate());
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
