import { useEffect, useReducer } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { formatMessageTime, useConnectionStore, usePresenceStore, useSettingsStore, type Presence } from '@messenger/shared';

const MINUTE_MS = 60_000;

/** "online", "last seen at 14:05", "last seen yesterday at 14:05", "last seen 12 Nov", or only roughly when. */
export function presenceLabel(presence: Presence, t: TFunction<'messenger'>, language: string, now = new Date()): string {
  if (presence.status !== 'offline' || !presence.last_seen_at) return t(`presence.${presence.status}`);
  const seen = new Date(presence.last_seen_at);
  if (now.getTime() - seen.getTime() < MINUTE_MS) return t('presence.justNow');
  const time = formatMessageTime(presence.last_seen_at, language);
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  if (seen.getTime() >= startOfToday) return t('presence.today', { time });
  if (seen.getTime() >= startOfToday - 86_400_000) return t('presence.yesterday', { time });
  const date = new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short', ...(seen.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }) }).format(seen);
  return t('presence.date', { date });
}

/**
 * The other person's presence in a private chat, as far as they let me see it; null until known. Asked when the
 * chat opens and whenever the connection comes back (signals sent while it was away are gone); kept current by
 * presence signals in between.
 */
export function usePresenceLabel(userId: number | null): string | null {
  const { t } = useTranslation('messenger');
  const language = useSettingsStore((state) => state.language);
  const presence = usePresenceStore((state) => (userId === null ? undefined : state.byUser[userId]));
  const connected = useConnectionStore((state) => state.status === 'online');
  useEffect(() => {
    if (userId !== null && connected) void usePresenceStore.getState().load(userId);
  }, [userId, connected]);
  // "Just now" becomes "at 14:05", and today yesterday, as time passes with no new signal: worked out again each minute.
  const [, tick] = useReducer((count: number) => count + 1, 0);
  const ageing = presence?.status === 'offline' && presence.last_seen_at !== null;
  useEffect(() => {
    if (!ageing) return;
    const timer = setInterval(tick, MINUTE_MS);
    return () => clearInterval(timer);
  }, [ageing]);
  return presence ? presenceLabel(presence, t, language) : null;
}
