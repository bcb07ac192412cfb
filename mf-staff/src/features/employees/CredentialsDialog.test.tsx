import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initTestI18n } from '@messenger/shared/testing';
import '../../i18n';
import { CredentialsDialog } from './CredentialsDialog';

beforeAll(async () => {
  await initTestI18n();
  // jsdom has no modal dialogs.
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
});

test('shows and copies only what was set: a password left unchanged (null) is neither shown nor copied', async () => {
  const writeText = jest.fn(async () => undefined);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  render(<CredentialsDialog credentials={{ phone: '+4915112345678', password: 'new secret 1', extra_password: null }} onClose={() => undefined} />);
  const dialog = screen.getByRole('dialog');
  expect(dialog).toHaveTextContent('new secret 1');
  expect(screen.getByText('Password')).toBeInTheDocument();
  expect(screen.queryByText('Extra password')).toBeNull();
  expect(dialog).not.toHaveTextContent('null');
  await userEvent.click(screen.getByRole('button', { name: 'Copy credentials' }));
  expect(writeText).toHaveBeenCalledWith(expect.not.stringContaining('Extra password'));
  expect(writeText).toHaveBeenCalledWith(expect.stringContaining('Password: new secret 1'));
});

test('a click beside it does not close it (the passwords are shown once); Done does', async () => {
  const onClose = jest.fn();
  render(<CredentialsDialog credentials={{ phone: '+4915112345678', password: 'new secret 1', extra_password: 'new secret 2' }} onClose={onClose} />);
  // The layer around the panel is the dialog element itself.
  await userEvent.pointer({ keys: '[MouseLeft]', target: screen.getByRole('dialog') });
  expect(onClose).not.toHaveBeenCalled();
  await userEvent.click(screen.getByRole('button', { name: 'Done' }));
  expect(onClose).toHaveBeenCalledTimes(1);
});
