import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { chatFixture, initTestI18n, mockFetch } from '@messenger/shared/testing';
import { useAuthStore, useChatsStore, useUsersStore, type Me } from '@messenger/shared';
import '../../i18n';
import { JoinChatModal } from './JoinChatModal';

beforeAll(async () => {
  await initTestI18n();
});

beforeEach(() => {
  useAuthStore.setState({ user: { id: 1, role: 0 } as Me, hasSession: true });
  useChatsStore.setState({ chats: [] });
  useUsersStore.setState({ profiles: {} });
});

const group = chatFixture({ id: 9, chat_type: 'group', name: 'Team', participants: [1, 2, 3], owner_id: 2, created_at: '2026-11-01T00:00:00Z' });
const person = (id: number) => ({ id, name: `Person ${id}`, username: null, avatar: null, role: 0, deleted: false });

test('joining by code brings the members’ names too (the chat-created event finds the chat known and fetches none)', async () => {
  mockFetch({
    'POST /api/chat/join': { body: { chat: group } },
    'GET /api/user/2': { body: { user: person(2) } },
    'GET /api/user/3': { body: { user: person(3) } },
  });
  render(<JoinChatModal onClose={() => undefined} />, { wrapper: MemoryRouter });
  await userEvent.type(screen.getByLabelText('Chat code'), 'C-abcdefghij');
  await userEvent.click(screen.getByRole('button', { name: 'Join' }));
  await waitFor(() => expect(useUsersStore.getState().profiles[3]?.name).toBe('Person 3'));
  expect(useUsersStore.getState().profiles[2]?.name).toBe('Person 2');
  expect(useChatsStore.getState().chats.map((chat) => chat.id)).toEqual([9]);
});

test('someone the owner removed is told so in their language', async () => {
  mockFetch({ 'POST /api/chat/join': { status: 403, body: { error: 'removed_from_chat', message: 'The owner removed you from this group: only they can add you again' } } });
  render(<JoinChatModal onClose={() => undefined} />, { wrapper: MemoryRouter });
  await userEvent.type(screen.getByLabelText('Chat code'), 'C-abcdefghij');
  await userEvent.click(screen.getByRole('button', { name: 'Join' }));
  expect(await screen.findByText('The owner removed you from this group. Only they can add you again.')).toBeInTheDocument();
});
