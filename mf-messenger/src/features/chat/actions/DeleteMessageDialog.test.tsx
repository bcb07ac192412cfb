import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initTestI18n, mockFetch } from '@messenger/shared/testing';
import { useAuthStore, useMessagesStore, type Chat, type ChatMessage, type Me } from '@messenger/shared';
import '../../../i18n';
import { DeleteMessageDialog } from './DeleteMessageDialog';
import { useChatUiStore } from '../chatUiStore';

const chat = { id: 7, chat_type: 'private', participants: [1, 2], last_message: null } as unknown as Chat;
const message = (id: number): ChatMessage =>
  ({ id, chat_id: 7, sender_id: 1, client_id: `c${id}`, type: 'text', text: `m${id}`, created_at: '2026-01-01T00:00:00Z', state: 'sent' }) as ChatMessage;

beforeAll(async () => {
  await initTestI18n();
});

beforeEach(() => {
  useAuthStore.setState({ user: { id: 1, role: 0 } as Me, hasSession: true });
  useMessagesStore.setState({ threads: { 7: { messages: [message(1), message(2)], hasMore: false, loading: false, loaded: true, error: null, cachedIds: [] } } });
});

test('the delete confirmation lives outside the message rows and, once the server agrees, the message leaves the view at once', async () => {
  const fetch = mockFetch({ 'DELETE /api/chat/message/2': { body: { deleted: true } } });
  render(<DeleteMessageDialog chat={chat} />);
  expect(screen.queryByRole('dialog')).toBeNull();
  act(() => useChatUiStore.getState().askDelete(message(2)));
  const dialog = await screen.findByRole('dialog', { name: 'Delete this message?' });
  await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
  await waitFor(() => expect(useMessagesStore.getState().threads[7]!.messages.map((m) => m.id)).toEqual([1]));
  expect(fetch).toHaveBeenCalledTimes(1);
  expect(screen.queryByRole('dialog')).toBeNull();
});

test('a refused delete keeps the message and says so', async () => {
  mockFetch({ 'DELETE /api/chat/message/2': { status: 403, body: { error: 'not_allowed', message: 'no' } } });
  render(<DeleteMessageDialog chat={chat} />);
  act(() => useChatUiStore.getState().askDelete(message(2)));
  await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(useMessagesStore.getState().threads[7]!.messages.map((m) => m.id)).toEqual([1, 2]);
});
