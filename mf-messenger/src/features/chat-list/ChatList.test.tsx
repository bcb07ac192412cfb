import { act, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { initTestI18n } from '@messenger/shared/testing';
import { useAuthStore, useChatsStore, useContactsStore, useSearchStore, useUsersStore, type Chat, type Me } from '@messenger/shared';
import '../../i18n';
import { ChatList } from './ChatList';

const me = { id: 1, name: 'Me', role: 0 } as Me;

function chat(id: number, peer: number, lastAt: string | null, unread = 0, text = 'hi'): Chat {
  return {
    id,
    chat_type: 'private',
    is_secret: false,
    name: '',
    avatar: null,
    chat_avatar: null,
    participants: [1, peer],
    owner_id: null,
    invite_link: null,
    invite_code: null,
    interval: 0,
    created_at: '2026-01-01T00:00:00Z',
    last_message: lastAt ? { id: id * 10, chat_id: id, sender_id: peer, client_id: `c${id}`, type: 'text', text, file_path: null, file: null, meta: {}, reply_to: null, forwarded_from: null, created_at: lastAt, expires_at: null, edited_at: null, reactions: [], mentions: [] } : null,
    last_message_at: lastAt,
    unread_messages: unread,
    unread_mentions: 0,
    notifications: true,
    read_by_others_up_to: 0,
    last_message_deleted: false,
  };
}

beforeAll(async () => {
  await initTestI18n();
});

beforeEach(() => {
  useAuthStore.setState({ user: me, hasSession: true });
  useContactsStore.setState({
    loaded: true,
    contacts: [{ id: 2, alias_name: 'Bob (work)', name: 'Robert', username: null, phone: null, avatar: null, is_deleted_contact: false, deleted: false }],
  });
  useUsersStore.setState({ profiles: { 3: { id: 3, name: 'Carol', username: 'carol', avatar: null, role: 0, deleted: false } } });
  useSearchStore.getState().setText('');
});

test('lists chats newest first, named from contacts then profiles, with unread counts', () => {
  useChatsStore.setState({ loaded: true, chats: [chat(10, 2, '2026-05-01T10:00:00Z', 3, 'see you'), chat(11, 3, '2026-05-02T10:00:00Z')] });
  useChatsStore.setState((state) => ({ chats: [...state.chats].reverse() }));
  render(<ChatList />, { wrapper: MemoryRouter });
  const rows = within(screen.getByRole('list', { name: 'Chats' })).getAllByRole('link');
  expect(rows.map((row) => row.getAttribute('href'))).toEqual(['/11', '/10']);
  expect(rows[0]).toHaveTextContent('Carol');
  expect(rows[1]).toHaveTextContent('Bob (work)');
  expect(rows[1]).toHaveTextContent('see you');
  expect(within(rows[1]!).getByLabelText('3 unread messages')).toHaveTextContent('3');
  expect(rows[1]).toHaveAccessibleName(/3 unread messages/);
});

test('filters by the side-bar search and says when nothing matches', () => {
  useChatsStore.setState({ loaded: true, chats: [chat(10, 2, '2026-05-01T10:00:00Z'), chat(11, 3, '2026-05-02T10:00:00Z')] });
  useSearchStore.getState().setText('  BOB ');
  const { rerender } = render(<ChatList />, { wrapper: MemoryRouter });
  expect(screen.getAllByRole('link').map((row) => row.getAttribute('href'))).toEqual(['/10']);
  act(() => useSearchStore.getState().setText('zzz'));
  rerender(<ChatList />);
  expect(screen.getByText('Nothing found.')).toBeInTheDocument();
});

test('renders names as text, never as markup', () => {
  useContactsStore.setState({
    loaded: true,
    contacts: [{ id: 2, alias_name: '<img src=x onerror=alert(1)>', name: '', username: null, phone: null, avatar: null, is_deleted_contact: false, deleted: false }],
  });
  useChatsStore.setState({ loaded: true, chats: [chat(10, 2, '2026-05-01T10:00:00Z')] });
  const { container } = render(<ChatList />, { wrapper: MemoryRouter });
  expect(container.querySelector('img[src="x"]')).toBeNull();
  expect(screen.getByText('<img src=x onerror=alert(1)>')).toBeInTheDocument();
});

test('deleting the only message of a chat makes its preview "Message deleted", not "No messages yet" (spec §4)', () => {
  useChatsStore.setState({ loaded: true, snapshotSeq: 0, chats: [chat(10, 2, '2026-05-01T10:00:00Z', 1, 'only one'), chat(11, 3, null)] });
  render(<ChatList />, { wrapper: MemoryRouter });
  act(() =>
    useChatsStore.getState().applyEvent({ seq: 1, event_type: 'message-deleted', additional_info: { chat_id: 10, message_id: 100, last_message: null } }, 1),
  );
  const rows = screen.getAllByRole('link');
  expect(rows[0]).toHaveTextContent('Message deleted');
  expect(rows[0]).not.toHaveTextContent('only one');
  expect(rows[1]).toHaveTextContent('No messages yet');
});

test('someone without a name or username is listed by the phone the viewer may see, not as "?"', async () => {
  useUsersStore.setState({ profiles: { 4: { id: 4, name: '', username: null, avatar: null, role: 0, deleted: false, phone: '+4915112345678' } } });
  useChatsStore.setState({ loaded: true, chats: [chat(12, 4, '2026-05-01T10:00:00Z')] });
  render(<ChatList />, { wrapper: MemoryRouter });
  expect(screen.getByRole('link')).not.toHaveTextContent('?');
  // In its E.164 form until the phone rules (not part of a first load) arrive; showing it asked for them, and the
  // list computes its names again, formatted, when they come.
  expect(screen.getByRole('link')).toHaveTextContent('+4915112345678');
  expect(await screen.findByRole('link', { name: /\+49 1511 2345678/ })).toBeInTheDocument();
});

test('a chat leaves the list once its latest message’s auto-delete time passes, and comes back with a newer message (spec §4)', () => {
  const now = Date.parse('2026-05-01T10:00:10Z');
  const expiring = chat(13, 2, '2026-05-01T10:00:00Z', 0, 'self-destructs');
  expiring.last_message = { ...expiring.last_message!, expires_at: '2026-05-01T10:00:05Z' };
  const lasting = chat(14, 3, '2026-05-01T09:00:00Z');
  useChatsStore.setState({ loaded: true, snapshotSeq: 0, expiredRows: {}, chats: [expiring, lasting] });
  render(<ChatList />, { wrapper: MemoryRouter });
  expect(screen.getAllByRole('link')).toHaveLength(2);
  act(() => useChatsStore.getState().pruneExpired(now));
  expect(screen.getAllByRole('link').map((row) => row.getAttribute('href'))).toEqual(['/14']);
  // The server's sweep deletes it and names an older message as the latest: still gone.
  act(() =>
    useChatsStore.getState().applyEvent({ seq: 1, event_type: 'message-deleted', additional_info: { chat_id: 13, message_id: 130, last_message: null } }, 1),
  );
  expect(screen.getAllByRole('link')).toHaveLength(1);
  const newer = { ...expiring.last_message!, id: 200, client_id: 'n', text: 'new one', expires_at: null, created_at: '2026-05-01T10:01:00Z' };
  act(() => useChatsStore.getState().applyEvent({ seq: 2, event_type: 'text', additional_info: { chat_id: 13, message_id: 200, message: newer, user: { id: 2 } as never } }, 1));
  expect(screen.getAllByRole('link').map((row) => row.getAttribute('href'))).toEqual(['/13', '/14']);
});
