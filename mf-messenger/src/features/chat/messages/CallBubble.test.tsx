import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { chatFixture, initTestI18n } from '@messenger/shared/testing';
import { useAuthStore, type ChatMessage, type Me } from '@messenger/shared';
import '../../../i18n';
import { MessageBubble } from './MessageBubble';
import { CallContent, callOutcomeOf } from './CallBubble';

const chat = chatFixture();

/** A call message as the server stores it: type 'call', no text, no file. */
function callMessage(senderId: number, meta: Record<string, unknown> = {}): ChatMessage {
  return {
    id: 40,
    chat_id: 7,
    sender_id: senderId,
    client_id: 'c40',
    type: 'call',
    text: '',
    file_path: null,
    file: null,
    meta: meta as ChatMessage['meta'],
    reply_to: null,
    forwarded_from: null,
    created_at: '2026-05-01T10:00:00Z',
    expires_at: null,
    edited_at: null,
    reactions: [],
    mentions: [],
    state: 'sent',
  };
}

beforeAll(async () => {
  await initTestI18n();
  useAuthStore.setState({ user: { id: 1, name: 'Me', role: 0 } as Me, hasSession: true });
});

test('a call message is a call bubble: outgoing when I called, incoming when the other person did', () => {
  const { unmount } = render(<MessageBubble message={callMessage(1)} chat={chat} own showSender={false} />, { wrapper: MemoryRouter });
  const outgoing = screen.getByRole('group', { name: 'Outgoing call' });
  expect(within(outgoing).getByText('Outgoing call')).toBeInTheDocument();
  unmount();
  render(<MessageBubble message={callMessage(2)} chat={chat} own={false} showSender={false} />, { wrapper: MemoryRouter });
  expect(screen.getByRole('group', { name: 'Incoming call' })).toBeInTheDocument();
  expect(screen.queryByRole('group', { name: 'Outgoing call' })).not.toBeInTheDocument();
});

test('a call message offers neither forwarding nor copying', async () => {
  const user = userEvent.setup();
  render(<MessageBubble message={callMessage(2)} chat={chat} own={false} showSender={false} />, { wrapper: MemoryRouter });
  await user.click(screen.getByRole('button', { name: 'Message actions' }));
  const menu = await screen.findByRole('menu', { name: 'Message actions' });
  expect(within(menu).getByRole('menuitem', { name: 'Reply' })).toBeInTheDocument();
  expect(within(menu).queryByRole('menuitem', { name: 'Forward' })).not.toBeInTheDocument();
  expect(within(menu).queryByRole('menuitem', { name: 'Copy' })).not.toBeInTheDocument();
});

test.each([
  [1, { status: 'missed', durationSeconds: null }, 'Outgoing call, No answer'],
  [2, { status: 'missed', durationSeconds: null }, 'Incoming call, Missed'],
  [2, { status: 'rejected', durationSeconds: null }, 'Incoming call, Declined'],
  [1, { status: 'busy', durationSeconds: null }, 'Outgoing call, Busy'],
  [1, { status: 'ended', durationSeconds: 65 }, 'Outgoing call, 01:05'],
  [2, { status: 'ended', durationSeconds: 3723 }, 'Incoming call, 01:02:03'],
] as const)('from sender %i, outcome %j reads "%s"', (sender, outcome, label) => {
  render(<CallContent message={callMessage(sender)} outcome={outcome} />);
  const bubble = screen.getByRole('group', { name: label });
  expect(bubble).toHaveTextContent(label.split(', ')[1]!);
});

test('the outcome is read from the message meta when the server puts it there, and ignored otherwise', () => {
  expect(callOutcomeOf(callMessage(1))).toBeNull();
  expect(callOutcomeOf(callMessage(1, { call_status: 'ringing' }))).toBeNull();
  expect(callOutcomeOf(callMessage(1, { call_status: 'ended', duration_seconds: 12.7 }))).toEqual({ status: 'ended', durationSeconds: 12 });
  render(<MessageBubble message={callMessage(2, { call_status: 'missed' })} chat={chat} own={false} showSender={false} />, { wrapper: MemoryRouter });
  expect(screen.getByRole('group', { name: 'Incoming call, Missed' })).toBeInTheDocument();
});
