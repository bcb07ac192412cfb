import { act, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { initTestI18n, mockFetch } from '@messenger/shared/testing';
import { config, eventBus, useAuthStore, useChatsStore, type FlowEvent, type Me } from '@messenger/shared';
import '../../i18n';
import { CallsTab } from './CallsTab';

beforeAll(async () => {
  await initTestI18n();
  useAuthStore.setState({ user: { id: 1 } as Me, hasSession: true });
  useChatsStore.setState({ chats: [], loaded: true });
});

test('shows an empty history as such', async () => {
  mockFetch({ 'GET /api/chat/call/history': { body: { calls: [] } } });
  render(<CallsTab />, { wrapper: MemoryRouter });
  expect(await screen.findByText('No calls yet. Calls you make and receive will appear here.')).toBeInTheDocument();
});

test('lists calls with their direction, marking the ones that never connected', async () => {
  mockFetch({
    'GET /api/chat/call/history': {
      body: {
        calls: [
          // Still going: no length yet.
          record({ id: 2, chat_id: 9, connected: true, status: 'active', created_at: '2026-05-01T10:00:00Z', chat_name: 'Team', chat_type: 'group' }),
          // Over before anyone answered, with no reason given (the caller gave up).
          record({ id: 1, caller_id: 4, status: 'ended', direction: 'incoming' }),
        ],
      },
    },
  });
  render(<CallsTab />, { wrapper: MemoryRouter });
  const outgoing = await screen.findByTitle('Open the chat with Team');
  const missed = screen.getByTitle('Open the chat with Dana');
  expect(detail(outgoing)).toBe('Outgoing call');
  expect(detail(missed)).toBe('Incoming call · Not connected');
  expect(outgoing).not.toHaveClass('calls-missed');
  expect(missed).toHaveClass('calls-missed');
});

/** What a row says of the call (its arrow is decoration), and the row of a chat's call that says it. */
const detail = (row: HTMLElement) => row.querySelector('.calls-detail')?.textContent?.replace(/^[↗↙]/, '');
const rowShowing = (name: string, text: string) => screen.getAllByTitle(`Open the chat with ${name}`).find((row) => detail(row) === text);

const record = (fields: Record<string, unknown>) => ({
  chat_id: 8,
  caller_id: 1,
  connected: false,
  created_at: '2026-05-01T09:00:00Z',
  chat_name: 'Dana',
  chat_avatar: null,
  chat_type: 'private',
  direction: 'outgoing',
  message_id: null,
  duration_seconds: null,
  ...fields,
});

test('shows how long answered calls lasted, and why the others did not connect', async () => {
  mockFetch({
    'GET /api/chat/call/history': {
      body: {
        calls: [
          record({ id: 6, connected: true, status: 'ended', duration_seconds: 75 }),
          record({ id: 5, connected: true, status: 'ended', duration_seconds: 3725, direction: 'incoming', caller_id: 4 }),
          record({ id: 4, status: 'missed' }),
          record({ id: 3, status: 'missed', direction: 'incoming', caller_id: 4 }),
          record({ id: 2, status: 'rejected' }),
          record({ id: 1, status: 'busy' }),
        ],
      },
    },
  });
  render(<CallsTab />, { wrapper: MemoryRouter });
  const list = await screen.findByRole('list', { name: 'Calls' });
  const names = within(list)
    .getAllByRole('button')
    .map(detail);
  expect(names).toEqual([
    'Outgoing call · 01:15',
    'Incoming call · 01:02:05',
    'Outgoing call · No answer',
    'Incoming call · Missed',
    'Outgoing call · Declined',
    'Outgoing call · Busy',
  ]);
  expect(rowShowing('Dana', 'Incoming call · Missed')).toHaveClass('calls-missed');
});

test('reloads the history a moment after a call ends, keeping the list on screen meanwhile', async () => {
  let calls = [record({ id: 1, status: 'missed' })];
  const fetch = mockFetch({ 'GET /api/chat/call/history': () => ({ body: { calls } }) });
  const { unmount } = render(<CallsTab />, { wrapper: MemoryRouter });
  await waitFor(() => expect(rowShowing('Dana', 'Outgoing call · No answer')).toBeInTheDocument());
  expect(fetch).toHaveBeenCalledTimes(1);

  jest.useFakeTimers();
  try {
    calls = [record({ id: 2, connected: true, status: 'ended', duration_seconds: 5 }), ...calls];
    const hang = { event_type: 'hang', additional_info: { chat_id: 8, call_id: 2, room_id: 'r', reason: 'ended' } } as unknown as FlowEvent<'hang'>;
    act(() => eventBus.emit('hang', hang));
    act(() => jest.advanceTimersByTime(config.historyRefreshAfterHangMs - 1));
    expect(fetch).toHaveBeenCalledTimes(1);
    await act(async () => {
      jest.advanceTimersByTime(1);
    });
    expect(fetch).toHaveBeenCalledTimes(2);
  } finally {
    jest.useRealTimers();
  }
  await waitFor(() => expect(rowShowing('Dana', 'Outgoing call · 00:05')).toBeInTheDocument());
  expect(rowShowing('Dana', 'Outgoing call · No answer')).toBeInTheDocument();

  // Once the tab is gone, a later hang-up asks for nothing.
  unmount();
  jest.useFakeTimers();
  try {
    act(() => eventBus.emit('hang', { event_type: 'hang', additional_info: { chat_id: 8, call_id: 3, room_id: 'r', reason: 'missed' } } as unknown as FlowEvent<'hang'>));
    act(() => jest.advanceTimersByTime(config.historyRefreshAfterHangMs));
  } finally {
    jest.useRealTimers();
  }
  expect(fetch).toHaveBeenCalledTimes(2);
});

test('offers a retry when the history cannot be loaded', async () => {
  mockFetch({ 'GET /api/chat/call/history': { status: 500, body: { error: 'internal', message: 'Internal server error' } } });
  render(<CallsTab />, { wrapper: MemoryRouter });
  expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong on the server. Please try again.');
});
