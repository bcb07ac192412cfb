import { act, renderHook } from '@testing-library/react';
import { i18n, usePresenceStore } from '@messenger/shared';
import { initTestI18n } from '@messenger/shared/testing';
import '../../../i18n';
import { presenceLabel, usePresenceLabel } from './usePresenceLabel';

beforeAll(() => initTestI18n());

const now = new Date(2026, 10, 26, 15, 30);
const t = () => i18n.getFixedT('en', 'messenger');
const offline = (at: Date) => ({ user_id: 2, status: 'offline' as const, last_seen_at: at.toISOString() });

test('online, or last seen just now, today, yesterday or on a date; roughly when for someone who hides it', () => {
  expect(presenceLabel({ user_id: 2, status: 'online', last_seen_at: null }, t(), 'en', now)).toBe('online');
  expect(presenceLabel(offline(new Date(2026, 10, 26, 15, 29, 30)), t(), 'en', now)).toBe('last seen just now');
  expect(presenceLabel(offline(new Date(2026, 10, 26, 14, 5)), t(), 'en', now)).toBe('last seen at 14:05');
  expect(presenceLabel(offline(new Date(2026, 10, 25, 23, 59)), t(), 'en', now)).toBe('last seen yesterday at 23:59');
  expect(presenceLabel(offline(new Date(2026, 10, 12, 9, 0)), t(), 'en', now)).toBe('last seen Nov 12');
  expect(presenceLabel(offline(new Date(2025, 10, 12, 9, 0)), t(), 'en', now)).toBe('last seen Nov 12, 2025');
  expect(presenceLabel({ user_id: 2, status: 'recently', last_seen_at: null }, t(), 'en', now)).toBe('last seen recently');
  expect(presenceLabel({ user_id: 2, status: 'long_ago', last_seen_at: null }, t(), 'en', now)).toBe('last seen a long time ago');
});

test('"just now" turns into the time a minute later, with no new signal', () => {
  jest.useFakeTimers({ now: new Date(2026, 10, 26, 15, 30, 0) });
  try {
    usePresenceStore.setState({ byUser: { 2: offline(new Date(2026, 10, 26, 15, 29, 50)) } });
    const { result } = renderHook(() => usePresenceLabel(2));
    expect(result.current).toBe('last seen just now');
    act(() => jest.advanceTimersByTime(60_000));
    expect(result.current).toBe('last seen at 15:29');
  } finally {
    jest.useRealTimers();
  }
});
