import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { mockFetch } from '@messenger/shared/testing';
import { tokenStorage, useAuthStore, useSettingsStore } from '@messenger/shared';
import { initI18n } from '../i18n';
import { LoginPage } from './LoginPage';
import { useLoginStore } from './useLoginStore';

beforeAll(async () => {
  await initI18n();
});

beforeEach(() => {
  tokenStorage.clear();
  useAuthStore.setState({ hasSession: false, user: null });
  useLoginStore.getState().reset();
});

function renderLogin() {
  return render(
    <MemoryRouter initialEntries={['/login']}>
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/" element={<p>Chats home</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

test('continue is enabled only for a valid number, formatted as typed', async () => {
  const user = userEvent.setup();
  renderLogin();
  const phone = screen.getByLabelText('Phone number');
  const proceed = screen.getByRole('button', { name: 'Continue' });
  await user.selectOptions(screen.getByLabelText('Country'), 'DE');
  await user.type(phone, '01511234');
  expect(proceed).toBeDisabled();
  await user.type(phone, '5678');
  expect(phone).toHaveValue('01511 2345678');
  expect(proceed).toBeEnabled();
});

test('sends the code, accepts a pasted code and signs in', async () => {
  const user = userEvent.setup();
  const fetchMock = mockFetch({
    'POST /api/auth/send-code': { body: { is_manager: false, password_set: false, resend_after: 60 } },
    'POST /api/auth/sign-in': { body: { jwt_info: { access_token: 'a.b.c', refresh_token: 'r' }, is_new_user: false } },
  });
  renderLogin();
  await user.type(screen.getByLabelText('Phone number'), '+4915112345678');
  await user.click(screen.getByRole('button', { name: 'Continue' }));

  const code = await screen.findByLabelText('Code');
  expect(code).toHaveAttribute('autocomplete', 'one-time-code');
  expect(screen.getByRole('button', { name: /Send the code again in \d+ s/ })).toBeDisabled();
  code.focus();
  await user.paste('Code: 123 456');
  await waitFor(() => expect(screen.getByText('Chats home')).toBeInTheDocument());

  const signIn = fetchMock.mock.calls.find(([url]) => String(url).includes('/auth/sign-in'))!;
  expect(JSON.parse(String(signIn[1]!.body))).toEqual({ phone: '+4915112345678', code: '123456' });
  expect(tokenStorage.refresh).toBe('r');
});

test('shows the server’s reason when a code is refused, and lets the person start over', async () => {
  const user = userEvent.setup();
  mockFetch({
    'POST /api/auth/send-code': { body: { is_manager: false, password_set: false, resend_after: 60 } },
    'POST /api/auth/sign-in': { status: 400, body: { error: 'code_invalid', message: 'Wrong code' } },
  });
  renderLogin();
  await user.type(screen.getByLabelText('Phone number'), '+4915112345678');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await user.type(await screen.findByLabelText('Code'), '000000');
  expect(await screen.findByRole('alert')).toHaveTextContent('Wrong code');
  await user.click(screen.getByRole('button', { name: 'Use another phone number' }));
  expect(screen.getByLabelText('Phone number')).toHaveValue('');
});

test('staff sign in with their password and extra password instead of a code', async () => {
  const user = userEvent.setup();
  const fetchMock = mockFetch({
    'POST /api/auth/send-code': { body: { is_manager: true, password_set: true } },
    'POST /api/auth/sign-in-manager': { body: { ticket: 'ticket-1', expires_in: 300 } },
    'POST /api/auth/sign-in-manager-extra': { body: { jwt_info: { access_token: 'a.b.c', refresh_token: 'r2' } } },
  });
  renderLogin();
  await user.type(screen.getByLabelText('Phone number'), '+4915112345678');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  expect(screen.queryByLabelText('Code')).not.toBeInTheDocument();
  await user.type(await screen.findByLabelText('Password'), 'first secret');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await user.type(await screen.findByLabelText('Extra password'), 'second secret');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  await waitFor(() => expect(screen.getByText('Chats home')).toBeInTheDocument());

  const body = (path: string) => JSON.parse(String(fetchMock.mock.calls.find(([url]) => String(url).endsWith(path))![1]!.body));
  expect(body('/api/auth/sign-in-manager')).toEqual({ phone: '+4915112345678', password: 'first secret' });
  expect(body('/api/auth/sign-in-manager-extra')).toEqual({ phone: '+4915112345678', password: 'second secret', ticket: 'ticket-1' });
});

test('"Start over" goes back to the phone and forgets what was typed', async () => {
  const user = userEvent.setup();
  mockFetch({
    'POST /api/auth/send-code': { body: { is_manager: true, password_set: true } },
    'POST /api/auth/sign-in-manager': { status: 401, body: { error: 'wrong_password', message: 'Wrong password' } },
  });
  renderLogin();
  await user.type(screen.getByLabelText('Phone number'), '+4915112345678');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await user.type(await screen.findByLabelText('Password'), 'nope');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Wrong password.');
  expect(screen.getByLabelText('Password')).toHaveValue('');
  await user.click(screen.getByRole('button', { name: 'Start over' }));
  expect(screen.getByLabelText('Phone number')).toHaveValue('');
});

test('a visitor who reads no English picks their language on the sign-in page, and it is kept', async () => {
  const user = userEvent.setup();
  renderLogin();
  await user.selectOptions(screen.getByLabelText('Language'), 'de');
  expect(await screen.findByRole('heading', { name: 'Bei Messenger anmelden' })).toBeInTheDocument();
  expect(screen.getByLabelText('Telefonnummer')).toBeInTheDocument();
  expect(useSettingsStore.getState().language).toBe('de');
  expect(document.documentElement.lang).toBe('de');
  await user.selectOptions(screen.getByLabelText('Sprache'), 'en');
  expect(await screen.findByRole('heading', { name: 'Sign in to Messenger' })).toBeInTheDocument();
});

test('the resend countdown is the spec’s 60 s every time, however long the person waited before resending', async () => {
  jest.useFakeTimers();
  try {
    const user = userEvent.setup({ advanceTimers: (ms) => jest.advanceTimersByTime(ms) });
    const sendCode = mockFetch({ 'POST /api/auth/send-code': { body: { is_manager: false, password_set: false, resend_after: 60 } } });
    renderLogin();
    await user.type(screen.getByLabelText('Phone number'), '+4915112345678');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('button', { name: 'Send the code again in 60 s' })).toBeDisabled();

    act(() => jest.advanceTimersByTime(60_000));
    const resend = screen.getByRole('button', { name: 'Send the code again' });
    expect(resend).toBeEnabled();
    // The person reads their messages for a few minutes before asking again.
    act(() => jest.advanceTimersByTime(372_000));
    await user.click(resend);
    expect(await screen.findByText('A new code is on its way.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Send the code again in \d+ s$/ })).toHaveAccessibleName('Send the code again in 60 s');
    act(() => jest.advanceTimersByTime(1_000));
    expect(screen.getByRole('button', { name: /^Send the code again in \d+ s$/ })).toHaveAccessibleName('Send the code again in 59 s');
    expect(sendCode).toHaveBeenCalledTimes(2);
  } finally {
    jest.useRealTimers();
  }
});

test('a session ended because the person was blocked says so on the sign-in page, until a new sign-in begins', async () => {
  mockFetch({ 'POST /api/auth/send-code': { body: { sent: true, is_manager: false, password_set: false, resend_after: 60 } } });
  act(() => useLoginStore.getState().sessionEnded('This account is blocked. Contact support if you think this is a mistake.'));
  renderLogin();
  expect(screen.getByRole('alert')).toHaveTextContent('This account is blocked.');
  act(() => useLoginStore.getState().codeSent('+4915112345678', false, Date.now() + 60_000));
  expect(screen.queryByText(/This account is blocked/)).not.toBeInTheDocument();
});
