import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initTestI18n, mockFetch } from '@messenger/shared/testing';
import { useAuthStore, useNotificationsStore, type Me } from '@messenger/shared';
import '../../i18n';
import { EmployeesPage } from './EmployeesPage';

beforeAll(async () => {
  await initTestI18n();
});

const people = [
  { id: 1, name: 'Ada Admin', username: null, phone: '+4915100000001', role: 3, notes: '', blocked: false, deleted: false, isMuted: false, created_at: '2026-01-02T00:00:00Z', password_set: true, invited_users: 0 },
  { id: 2, name: 'Mona', username: 'mona', phone: '+4915100000002', role: 1, notes: 'North office', blocked: false, deleted: false, isMuted: false, created_at: '2026-02-02T00:00:00Z', password_set: true, invited_users: 4 },
  { id: 3, name: 'Otto', username: null, phone: '+4915100000003', role: 2, notes: '', blocked: true, deleted: false, isMuted: false, created_at: '2026-03-02T00:00:00Z', password_set: true, invited_users: 0 },
];

test('lists people with their role and notes; admins act only on people below them', async () => {
  useAuthStore.setState({ user: { id: 1, role: 2 } as Me, hasSession: true });
  mockFetch({ 'GET /api/user/all': { body: { users: people, truncated: false } } });
  render(<EmployeesPage />);
  const mona = await screen.findByRole('row', { name: /Mona/ });
  expect(mona).toHaveTextContent('North office');
  // A role-2 admin may not offer "Admin" (spec §6: only a top admin may), nor touch another admin.
  const monaRole = within(mona).getByRole('combobox', { name: 'Role of Mona' });
  expect(within(monaRole).getAllByRole('option').map((option) => option.textContent)).toEqual(['User', 'Manager']);
  expect(within(mona).getByRole('button', { name: 'Block Mona' })).toBeEnabled();
  const otto = screen.getByRole('row', { name: /Otto/ });
  expect(within(otto).getByRole('button', { name: 'Unblock Otto' })).toBeDisabled();
  expect(within(otto).getByText('Blocked')).toBeInTheDocument();
});

test('a top admin may make someone an admin; resetting passwords asks first and shows the new credentials once', async () => {
  useAuthStore.setState({ user: { id: 1, role: 3 } as Me, hasSession: true });
  const fetchMock = mockFetch({
    'GET /api/user/all': { body: { users: people, truncated: false } },
    'PUT /api/user/manager': (_url, init) => {
      const body = JSON.parse(String(init?.body));
      return { body: { user: people[1], credentials: { phone: people[1]!.phone, password: body.password, extra_password: body.extra_password } } };
    },
  });
  render(<EmployeesPage />);
  const mona = await screen.findByRole('row', { name: /Mona/ });
  expect(within(within(mona).getByRole('combobox', { name: 'Role of Mona' })).getAllByRole('option').map((option) => option.textContent)).toEqual([
    'User',
    'Manager',
    'Admin',
  ]);
  await userEvent.click(within(mona).getByRole('button', { name: 'Reset passwords for Mona' }));
  await userEvent.click(within(screen.getByRole('dialog', { name: 'Reset the passwords?' })).getByRole('button', { name: 'Reset passwords' }));
  const shown = await screen.findByRole('dialog', { name: 'Sign-in details' });
  const [password, extra] = within(shown).getAllByText(/^[A-HJ-NP-Za-km-np-z2-9]{16}$/);
  expect(password!.textContent).not.toEqual(extra!.textContent);
  const sent = JSON.parse(String(fetchMock.mock.calls.find(([url, init]) => String(url).includes('/api/user/manager') && init?.method === 'PUT')![1]!.body));
  expect(sent).toEqual({ user_id: 2, password: password!.textContent, extra_password: extra!.textContent });
});

test('someone without a name is named by their username or phone in the confirmation and the notice too', async () => {
  useAuthStore.setState({ user: { id: 1, role: 3 } as Me, hasSession: true });
  const nameless = { ...people[1]!, id: 4, name: '', username: 'quiet' };
  mockFetch({ 'GET /api/user/all': { body: { users: [...people, nameless], truncated: false } }, 'DELETE /api/user/4': { body: { deleted: true } } });
  render(<EmployeesPage />);
  const row = await screen.findByRole('row', { name: /@quiet/ });
  await userEvent.click(within(row).getByRole('button', { name: 'Delete @quiet' }));
  const dialog = screen.getByRole('dialog', { name: /Delete/ });
  expect(dialog).toHaveTextContent('@quiet will be signed out and can no longer sign in.');
  await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
  await waitFor(() => expect(useNotificationsStore.getState().items.map((item) => item.text)).toContain('@quiet was deleted'));
});

test('a list cut at its limit says so, and how to find the others', async () => {
  useAuthStore.setState({ user: { id: 1, role: 3 } as Me, hasSession: true });
  mockFetch({ 'GET /api/user/all': { body: { users: people, truncated: true } } });
  render(<EmployeesPage />);
  expect(await screen.findByText('Only the first 3 people are shown. Search by name, username or phone to find others.')).toHaveAttribute('role', 'status');
});

test('a new role is asked for first (an arrow key on the select already picks one): cancelled, nothing changes', async () => {
  useAuthStore.setState({ user: { id: 1, role: 3 } as Me, hasSession: true });
  const fetchMock = mockFetch({
    'GET /api/user/all': { body: { users: people, truncated: false } },
    'PUT /api/user/role': { body: { user: { ...people[1]!, role: 0 } } },
  });
  render(<EmployeesPage />);
  const mona = await screen.findByRole('row', { name: /Mona/ });
  const role = within(mona).getByRole('combobox', { name: 'Role of Mona' });
  const roleChanges = () => fetchMock.mock.calls.filter(([url]) => String(url).includes('/api/user/role'));

  await userEvent.selectOptions(role, '0');
  const asked = screen.getByRole('dialog', { name: 'Change the role?' });
  expect(asked).toHaveTextContent('New role for Mona: User');
  await userEvent.click(within(asked).getByRole('button', { name: 'Cancel' }));
  expect(roleChanges()).toHaveLength(0);
  expect(role).toHaveValue('1');

  await userEvent.selectOptions(role, '0');
  await userEvent.click(within(screen.getByRole('dialog', { name: 'Change the role?' })).getByRole('button', { name: 'Change role' }));
  await waitFor(() => expect(roleChanges()).toHaveLength(1));
  expect(JSON.parse(String(roleChanges()[0]![1]!.body))).toEqual({ user_id: 2, role_id: 0 });
});
