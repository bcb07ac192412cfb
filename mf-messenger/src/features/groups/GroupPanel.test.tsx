import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { initTestI18n, mockFetch } from '@messenger/shared/testing';
import { useAuthStore, useChatsStore, useContactsStore, useUsersStore, type Chat, type Me } from '@messenger/shared';
import '../../i18n';
import { GroupPanel } from './GroupPanel';

beforeAll(async () => {
  await initTestI18n();
});

beforeEach(() => {
  useAuthStore.setState({ user: { id: 1, role: 0 } as Me, hasSession: true });
  useChatsStore.setState({ chats: [] });
  useContactsStore.setState({ contacts: [], loaded: true });
  useUsersStore.setState({ profiles: {} });
});

const group: Chat = {
  id: 9,
  chat_type: 'group',
  is_secret: false,
  name: 'Team',
  avatar: '2026/11/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.png',
  chat_avatar: null,
  participants: [1, 2],
  owner_id: 1,
  invite_link: null,
  invite_code: 'C-abcdefghij',
  interval: 0,
  created_at: '2026-11-01T00:00:00Z',
  last_message: null,
  last_message_at: null,
  unread_messages: 0,
  unread_mentions: 0,
  notifications: true,
  read_by_others_up_to: 0,
  last_message_deleted: false,
};

test('a change made elsewhere shows in a field not edited here, and Save sends only what was edited here', async () => {
  const fetchMock = mockFetch({
    'PUT /api/chat/edit': (_url, init) => ({ body: { chat: { ...group, ...JSON.parse(String(init?.body)) } } }),
  });
  const { rerender } = render(<GroupPanel chat={group} onClose={() => undefined} />, { wrapper: MemoryRouter });
  const name = screen.getByLabelText('Group name');
  const save = screen.getByRole('button', { name: 'Save' });

  // Renamed in another tab: the field follows, and there is nothing to save.
  rerender(<GroupPanel chat={{ ...group, name: 'Team renamed' }} onClose={() => undefined} />);
  expect(name).toHaveValue('Team renamed');
  expect(save).toBeDisabled();

  // Edited here, then the picture changed elsewhere: the edit stays, and Save sends the name only.
  await userEvent.clear(name);
  await userEvent.type(name, 'My team');
  rerender(<GroupPanel chat={{ ...group, name: 'Team renamed', avatar: null }} onClose={() => undefined} />);
  expect(name).toHaveValue('My team');
  await userEvent.click(save);
  await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/api/chat/edit'))).toBe(true));
  const sent = fetchMock.mock.calls.find(([url]) => String(url).includes('/api/chat/edit'))![1]!;
  expect(JSON.parse(String(sent.body))).toEqual({ chat_id: 9, name: 'My team' });
});
