import { act, render, screen } from '@testing-library/react';
import { useConnectionStore } from '@messenger/shared';
import { initI18n } from '../i18n';
import { ConnectionBanner } from './ConnectionBanner';

beforeAll(async () => {
  await initI18n();
});

beforeEach(() => {
  jest.useFakeTimers();
  useConnectionStore.setState({ status: 'online' });
});
afterEach(() => jest.useRealTimers());

test('tells the person when live updates are lost beyond a short grace period, and when they are back', () => {
  render(<ConnectionBanner />);
  expect(screen.queryByRole('status')).toBeNull();
  // A blip shorter than the grace period shows nothing.
  act(() => useConnectionStore.setState({ status: 'connecting' }));
  act(() => jest.advanceTimersByTime(500));
  act(() => useConnectionStore.setState({ status: 'online' }));
  act(() => jest.advanceTimersByTime(5000));
  expect(screen.queryByRole('status')).toBeNull();

  act(() => useConnectionStore.setState({ status: 'offline' }));
  act(() => jest.advanceTimersByTime(2000));
  expect(screen.getByRole('status')).toHaveTextContent('No connection. Reconnecting…');
  act(() => useConnectionStore.setState({ status: 'online' }));
  expect(screen.getByRole('status')).toHaveTextContent('Connected again');
  act(() => jest.advanceTimersByTime(3500));
  expect(screen.queryByRole('status')).toBeNull();
});
