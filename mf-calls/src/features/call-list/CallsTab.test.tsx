import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { initTestI18n, mockFetch } from '@messenger/shared/testing';
import { useAuthStore, useChatsStore, type Me } from '@messenger/shared';
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
          { id: 2, chat_id: 9, caller_id: 1, connected: true, created_at: '2026-05-01T10:00:00Z', chat_name: 'Team', chat_avatar: null, chat_type: 'group', direction: 'outgoing' },
          { id: 1, chat_id: 8, caller_id: 4, connected: false, created_at: '2026-05-01T09:00:00Z', chat_name: 'Dana', chat_avatar: null, chat_type: 'private', direction: 'incoming' },
        ],
      },
    },
  });
  render(<CallsTab />, { wrapper: MemoryRouter });
  const outgoing = await screen.findByRole('button', { name: 'Open the chat with Team. Outgoing call' });
  const missed = screen.getByRole('button', { name: 'Open the chat with Dana. Incoming call, Not connected' });
  expect(outgoing).not.toHaveClass('calls-missed');
  expect(missed).toHaveClass('calls-missed');
});

test('offers a retry when the history cannot be loaded', async () => {
  mockFetch({ 'GET /api/chat/call/history': { status: 500, body: { error: 'internal', message: 'Internal server error' } } });
  render(<CallsTab />, { wrapper: MemoryRouter });
  expect(await screen.findByRole('alert')).toHaveTextContent('Internal server error');
});
