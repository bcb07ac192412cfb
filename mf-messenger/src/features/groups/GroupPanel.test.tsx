import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { chatFixture, initTestI18n, mockFetch } from '@messenger/shared/testing';
import { useAuthStore, useChatsStore, useContactsStore, useUsersStore, type Me } from '@messenger/shared';
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

const group = chatFixture({
  id: 9,
  chat_type: 'group',
  name: 'Team',
  avatar: '2026/11/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.png',
  owner_id: 1,
  invite_code: 'C-abcdefghij',
  created_at: '2026-11-01T00:00:00Z',
});

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
