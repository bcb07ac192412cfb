import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initTestI18n } from '@messenger/shared/testing';
import { drafts, sendMessage, useAuthStore, type Me } from '@messenger/shared';
import '../../../i18n';
import { Composer } from './Composer';

jest.mock('@messenger/shared', () => ({ ...jest.requireActual('@messenger/shared'), sendMessage: jest.fn() }));

beforeAll(async () => {
  await initTestI18n();
});

test('Enter sends the trimmed text and clears the box; Shift+Enter adds a line', async () => {
  const user = userEvent.setup();
  render(<Composer chatId={7} />);
  const box = screen.getByRole('textbox', { name: 'Message' });
  const send = screen.getByRole('button', { name: 'Send' });
  expect(send).toBeDisabled();
  await user.type(box, '  first line{Shift>}{Enter}{/Shift}second  ');
  expect(box).toHaveValue('  first line\nsecond  ');
  await user.keyboard('{Enter}');
  expect(sendMessage).toHaveBeenCalledWith({ chatId: 7, text: 'first line\nsecond', replyTo: undefined });
  expect(box).toHaveValue('');
});

test('never sends blank text', async () => {
  const user = userEvent.setup();
  render(<Composer chatId={7} />);
  const box = screen.getByRole('textbox', { name: 'Message' });
  await user.type(box, '   {Enter}');
  expect(sendMessage).not.toHaveBeenCalled();
});

test('caps input at 10 000 characters counted as the server counts them: an emoji is one', async () => {
  const user = userEvent.setup();
  render(<Composer chatId={7} />);
  const box = screen.getByRole('textbox', { name: 'Message' });
  // 9 999 emoji are 19 998 UTF-16 units: an HTML maxlength of 10 000 would have refused half of them.
  fireEvent.change(box, { target: { value: '😀'.repeat(9_999) } });
  expect(box).toHaveValue('😀'.repeat(9_999));
  expect(screen.getByText('1 character left')).toBeInTheDocument();
  fireEvent.change(box, { target: { value: '😀'.repeat(10_005) } });
  expect(box).toHaveValue('😀'.repeat(10_000));
  await user.click(screen.getByRole('button', { name: 'Send' }));
  expect(sendMessage).toHaveBeenCalledWith({ chatId: 7, text: '😀'.repeat(10_000), replyTo: undefined });
});

test('offers the microphone and the attach button when there is nothing to send', () => {
  render(<Composer chatId={7} />);
  expect(screen.getByRole('button', { name: 'Record a voice message' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Attach a file' })).toBeInTheDocument();
});

test('what was typed and not sent is back when the chat opens again (another chat keeps its own); sending removes it', async () => {
  localStorage.clear();
  useAuthStore.getState().setUser({ id: 5 } as Me);
  const user = userEvent.setup();
  const first = render(<Composer chatId={7} />);
  await user.type(screen.getByRole('textbox', { name: 'Message' }), 'half a thought');
  first.unmount(); // another chat opens
  const other = render(<Composer chatId={8} />);
  expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('');
  other.unmount();
  const again = render(<Composer chatId={7} />);
  const box = screen.getByRole('textbox', { name: 'Message' });
  expect(box).toHaveValue('half a thought');
  await user.type(box, '{Enter}');
  expect(sendMessage).toHaveBeenCalledWith({ chatId: 7, text: 'half a thought', replyTo: undefined });
  again.unmount();
  render(<Composer chatId={7} />);
  expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('');
  expect(drafts.get(5, 7)).toBe('');
});

test('the draft is stored as the page goes away, without waiting for the pause in typing', async () => {
  localStorage.clear();
  useAuthStore.getState().setUser({ id: 5 } as Me);
  const user = userEvent.setup();
  render(<Composer chatId={9} />);
  await user.type(screen.getByRole('textbox', { name: 'Message' }), 'before the reload');
  window.dispatchEvent(new Event('pagehide'));
  expect(drafts.get(5, 9)).toBe('before the reload');
});
