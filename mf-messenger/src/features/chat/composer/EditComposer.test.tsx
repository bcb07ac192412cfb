import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initTestI18n } from '@messenger/shared/testing';
import { ApiError, chatsApi, eventBus, useChatsStore, useNotificationsStore, type ChatMessage, type FlowEvent } from '@messenger/shared';
import '../../../i18n';
import { useChatUiStore } from '../chatUiStore';
import { Composer } from './Composer';

const mine = (id: number, chatId = 7) =>
  ({ id, chat_id: chatId, sender_id: 1, client_id: `c${id}`, type: 'text', text: `note ${id}`, created_at: '2026-01-01T00:00:00Z', state: 'sent' }) as ChatMessage;

const deleted = (chatId: number, messageId: number) =>
  ({ event_type: 'message-deleted', seq: 1, additional_info: { chat_id: chatId, message_id: messageId } }) as unknown as FlowEvent<'message-deleted'>;

const notices = () => useNotificationsStore.getState().items.map((item) => item.text);

beforeAll(async () => {
  await initTestI18n();
});

beforeEach(() => {
  useNotificationsStore.getState().clear();
  useChatsStore.getState().setActive(7);
  useChatUiStore.setState({ editing: {}, replyTo: {}, deleting: null });
  jest.restoreAllMocks();
});

test('Save on a message deleted meanwhile ends the edit and says why, instead of "Message not found"', async () => {
  jest.spyOn(chatsApi, 'editMessage').mockRejectedValue(new ApiError(404, 'message_not_found', 'Message not found'));
  useChatUiStore.getState().setEditing(7, mine(41));
  const user = userEvent.setup();
  render(<Composer chatId={7} />);
  await user.type(screen.getByRole('textbox', { name: 'Edit message' }), ' and more');
  await user.click(screen.getByRole('button', { name: 'Save' }));
  expect(await screen.findByRole('textbox', { name: 'Message' })).toBeInTheDocument();
  expect(screen.queryByRole('textbox', { name: 'Edit message' })).not.toBeInTheDocument();
  expect(notices()).toEqual(['The message you were editing was deleted.']);
});

test('another failure of Save keeps the edit open', async () => {
  jest.spyOn(chatsApi, 'editMessage').mockRejectedValue(new ApiError(0, 'network', 'offline'));
  useChatUiStore.getState().setEditing(7, mine(42));
  const user = userEvent.setup();
  render(<Composer chatId={7} />);
  await user.type(screen.getByRole('textbox', { name: 'Edit message' }), '!');
  await user.click(screen.getByRole('button', { name: 'Save' }));
  expect(await screen.findByRole('textbox', { name: 'Edit message' })).toHaveValue('note 42!');
  expect(useChatUiStore.getState().editing[7]?.id).toBe(42);
});

test('a deletion heard live ends the edit or the reply of that message, and only that one; a dialog about it closes', () => {
  render(<Composer chatId={7} />);
  act(() => useChatUiStore.getState().setEditing(7, mine(43)));
  expect(screen.getByRole('textbox', { name: 'Edit message' })).toBeInTheDocument();
  act(() => eventBus.emit('message-deleted', deleted(7, 99)));
  expect(screen.getByRole('textbox', { name: 'Edit message' })).toBeInTheDocument();
  expect(screen.getByRole('textbox', { name: 'Edit message' })).toHaveFocus();
  act(() => eventBus.emit('message-deleted', deleted(7, 43)));
  expect(screen.queryByRole('textbox', { name: 'Edit message' })).not.toBeInTheDocument();
  expect(notices()).toEqual(['The message you were editing was deleted.']);
  // The focus goes to the message box, not to the page.
  expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus();

  act(() => {
    useChatUiStore.getState().setReplyTo(7, mine(44));
    useChatUiStore.getState().askDelete(mine(44));
  });
  act(() => eventBus.emit('message-deleted', deleted(7, 44)));
  expect(useChatUiStore.getState().replyTo[7]).toBeUndefined();
  expect(useChatUiStore.getState().deleting).toBeNull();
  expect(notices()).toContain('The message you were replying to was deleted.');
});

test('in a chat not on screen the edit ends without a word', () => {
  render(<Composer chatId={7} />);
  act(() => useChatUiStore.getState().setEditing(8, mine(45, 8)));
  act(() => eventBus.emit('message-deleted', deleted(8, 45)));
  expect(useChatUiStore.getState().editing[8]).toBeUndefined();
  expect(notices()).toEqual([]);
});
