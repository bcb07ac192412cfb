import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initTestI18n } from '@messenger/shared/testing';
import { sendMessage } from '@messenger/shared';
import '../../i18n';
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

test('never sends blank text and caps input at 10 000 characters', async () => {
  const user = userEvent.setup();
  render(<Composer chatId={7} />);
  const box = screen.getByRole('textbox', { name: 'Message' });
  await user.type(box, '   {Enter}');
  expect(sendMessage).not.toHaveBeenCalled();
  expect(box).toHaveAttribute('maxLength', '10000');
});

test('offers the microphone and the attach button when there is nothing to send', () => {
  render(<Composer chatId={7} />);
  expect(screen.getByRole('button', { name: 'Record a voice message' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Attach a file' })).toBeInTheDocument();
});
