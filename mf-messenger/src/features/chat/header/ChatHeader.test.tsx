import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { chatFixture, initTestI18n, mockFetch } from '@messenger/shared/testing';
import { useAuthStore, useCallStore, useContactsStore, useNotificationsStore, useUsersStore, type Chat, type Me } from '@messenger/shared';
import '../../../i18n';
import { ChatHeader } from './ChatHeader';

const me = { id: 1, name: 'Me', role: 0 } as Me;

const chat = (overrides: Partial<Chat> = {}): Chat => chatFixture(overrides);

function renderHeader(value: Chat) {
  return render(<ChatHeader chat={value} panelOpen={false} onTogglePanel={() => undefined} searching={false} onToggleSearch={() => undefined} />, {
    wrapper: MemoryRouter,
  });
}

beforeAll(async () => {
  await initTestI18n();
});

beforeEach(() => {
  useAuthStore.setState({ user: me, hasSession: true });
  useContactsStore.setState({ loaded: true, contacts: [] });
  useUsersStore.setState({ profiles: { 2: { id: 2, name: 'Dana', username: null, avatar: null, role: 0, deleted: false } } });
  useCallStore.setState({ active: null, incoming: null, notice: null });
  useNotificationsStore.setState({ items: [] });
});

test('the Call button calls the chat, and is disabled while a call is open', async () => {
  const user = userEvent.setup();
  const fetch = mockFetch({ 'POST /api/meet/call': { body: { call: { id: 3, chat_id: 7, room_id: 'r-1', message_id: 40 }, joined: false, busy: false } } });
  renderHeader(chat());
  const call = screen.getByRole('button', { name: 'Call' });
  expect(call).toBeEnabled();
  await user.click(call);
  expect(fetch).toHaveBeenCalledWith(expect.stringContaining('/api/meet/call'), expect.objectContaining({ method: 'POST' }));
  expect(JSON.parse(String(fetch.mock.calls[0]![1]!.body))).toEqual({ chat_id: 7 });
  expect(useCallStore.getState().active).toMatchObject({ chatId: 7, callId: 3, outgoing: true });
  expect(screen.getByRole('button', { name: 'Call' })).toBeDisabled();
  act(() => useCallStore.getState().endActive());
  expect(screen.getByRole('button', { name: 'Call' })).toBeEnabled();
});

test('a call that cannot be started is reported as an error notification', async () => {
  const user = userEvent.setup();
  mockFetch({ 'POST /api/meet/call': { status: 500, body: { error: 'internal', message: 'Internal server error' } } });
  renderHeader(chat());
  await user.click(screen.getByRole('button', { name: 'Call' }));
  expect(useNotificationsStore.getState().items).toEqual([expect.objectContaining({ kind: 'error', text: 'Something went wrong on the server. Please try again.' })]);
  expect(useCallStore.getState().active).toBeNull();
});

test('groups and secret chats can be called too', () => {
  renderHeader(chat({ chat_type: 'group', name: 'Team', participants: [1, 2, 3], owner_id: 2, is_secret: true }));
  expect(screen.getByRole('button', { name: 'Call' })).toBeInTheDocument();
});

test('no Call button for a deleted person, nor for an admin reading a chat they are not in', async () => {
  useUsersStore.setState({ profiles: { 2: { id: 2, name: '', username: null, avatar: null, role: 0, deleted: true } } });
  const { unmount } = renderHeader(chat());
  expect(screen.queryByRole('button', { name: 'Call' })).not.toBeInTheDocument();
  unmount();
  useAuthStore.setState({ user: { ...me, role: 2 } });
  mockFetch({ 'GET /api/chat/recording': { body: { chat_id: 7, recording: false } } });
  renderHeader(chat({ chat_type: 'group', name: 'Secret', participants: [4, 5], owner_id: 4, is_secret: true }));
  expect(screen.queryByRole('button', { name: 'Call' })).not.toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Search in this chat' })).toBeInTheDocument();
  await waitFor(() => expect(screen.getByRole('button', { name: 'Record calls', pressed: false })).toBeEnabled());
});

test('admins see whether calls are recorded and switch it; others have no such button', async () => {
  const user = userEvent.setup();
  const fetch = mockFetch({
    'GET /api/chat/recording': { body: { chat_id: 7, recording: true } },
    'PUT /api/chat/recording': { body: { chat_id: 7, recording: false } },
  });
  const { unmount } = renderHeader(chat());
  expect(screen.queryByRole('button', { name: 'Record calls' })).not.toBeInTheDocument();
  expect(fetch).not.toHaveBeenCalled();
  unmount();

  useAuthStore.setState({ user: { ...me, role: 2 } });
  renderHeader(chat());
  const record = await screen.findByRole('button', { name: 'Record calls', pressed: true });
  expect(fetch).toHaveBeenCalledWith(expect.stringContaining('/api/chat/recording?chat_id=7'), expect.objectContaining({ method: 'GET' }));
  await user.click(record);
  expect(await screen.findByRole('button', { name: 'Record calls', pressed: false })).toBeEnabled();
  const put = fetch.mock.calls.find(([, init]) => init?.method === 'PUT');
  expect(JSON.parse(String(put![1]!.body))).toEqual({ chat_id: 7, enabled: false });
  expect(useNotificationsStore.getState().items).toEqual([]);
});

test('a recording switch the server refuses is reported as an error notification', async () => {
  const user = userEvent.setup();
  useAuthStore.setState({ user: { ...me, role: 2 } });
  mockFetch({
    'GET /api/chat/recording': { body: { chat_id: 7, recording: false } },
    'PUT /api/chat/recording': { status: 500, body: { error: 'internal', message: 'Internal server error' } },
  });
  renderHeader(chat());
  await user.click(await screen.findByRole('button', { name: 'Record calls', pressed: false }));
  expect(useNotificationsStore.getState().items).toEqual([expect.objectContaining({ kind: 'error', text: 'Something went wrong on the server. Please try again.' })]);
  expect(screen.getByRole('button', { name: 'Record calls', pressed: false })).toBeEnabled();
});

test('the auto-delete timer is offered in a private chat and to a group’s owner, not to its other members', () => {
  const { unmount } = renderHeader(chat());
  expect(screen.getByRole('button', { name: 'Auto-delete timer' })).toBeInTheDocument();
  unmount();
  const member = renderHeader(chat({ chat_type: 'group', name: 'Team', participants: [1, 2, 3], owner_id: 2 }));
  expect(screen.queryByRole('button', { name: 'Auto-delete timer' })).not.toBeInTheDocument();
  member.unmount();
  renderHeader(chat({ chat_type: 'group', name: 'Team', participants: [1, 2, 3], owner_id: 1 }));
  expect(screen.getByRole('button', { name: 'Auto-delete timer' })).toBeInTheDocument();
});
