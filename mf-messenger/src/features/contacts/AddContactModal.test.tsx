import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initTestI18n, mockFetch } from '@messenger/shared/testing';
import { useAuthStore, useContactsStore, useNotificationsStore, type Me } from '@messenger/shared';
import '../../i18n';
import { AddContactModal } from './AddContactModal';

beforeAll(async () => {
  await initTestI18n();
});

beforeEach(() => {
  useAuthStore.setState({ user: { id: 1, phone: '+4915100000001', role: 0 } as Me, hasSession: true });
  useContactsStore.setState({ contacts: [], loaded: true });
  useNotificationsStore.getState().clear();
});

test('submit needs a name and a valid phone or a username, and never one’s own phone', async () => {
  const user = userEvent.setup();
  render(<AddContactModal onClose={() => undefined} />);
  const submit = screen.getByRole('button', { name: 'Add contact' });
  expect(submit).toBeDisabled();

  await user.type(screen.getByLabelText('Name'), 'Anna');
  expect(submit).toBeDisabled();
  await user.type(screen.getByLabelText('Username'), '@anna');
  expect(submit).toBeEnabled();
  await user.clear(screen.getByLabelText('Username'));

  await user.type(screen.getByLabelText('Phone number'), '+4915100000001');
  expect(submit).toBeDisabled();
  expect(screen.getByText('This is your own number.')).toBeInTheDocument();
  await user.clear(screen.getByLabelText('Phone number'));
  await user.type(screen.getByLabelText('Phone number'), '+4915100000002');
  expect(submit).toBeEnabled();
});

test('strips the @ of a username and warns when nobody was found', async () => {
  const user = userEvent.setup();
  const fetchMock = mockFetch({ 'POST /api/user/contacts/add': { body: { added: false, invited: false } } });
  render(<AddContactModal onClose={() => undefined} />);
  await user.type(screen.getByLabelText('Name'), 'Ghost');
  await user.type(screen.getByLabelText('Username'), '@ghost_user');
  await user.click(screen.getByRole('button', { name: 'Add contact' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Nobody with this username was found.');
  expect(JSON.parse(String(fetchMock.mock.calls[0]![1]!.body))).toEqual({ name: 'Ghost', username: 'ghost_user' });
});

test('a number nobody can be added with (a deleted account) is not called a username; the day’s invitations used up say so', async () => {
  const user = userEvent.setup();
  let answer: { status?: number; body: unknown } = { body: { added: false, invited: false } };
  mockFetch({ 'POST /api/user/contacts/add': () => answer });
  render(<AddContactModal onClose={() => undefined} />);
  await user.type(screen.getByLabelText('Name'), 'Gone');
  await user.type(screen.getByLabelText('Phone number'), '+4915100000009');
  await user.click(screen.getByRole('button', { name: 'Add contact' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Nobody on Messenger can be added with this number.');

  answer = { status: 429, body: { error: 'invite_limit', message: 'You have sent as many invitations as a day allows; try again later' } };
  await user.click(screen.getByRole('button', { name: 'Add contact' }));
  expect(await screen.findByText('You have sent as many invitations as a day allows. Try again later.')).toBeInTheDocument();
});

test('shows the spec’s warning for an existing contact, and closes after adding', async () => {
  const user = userEvent.setup();
  const onClose = jest.fn();
  let first = true;
  mockFetch({
    'POST /api/user/contacts/add': () => {
      if (first) {
        first = false;
        return { status: 409, body: { error: 'contact_exists', message: 'This contact has already been added.' } };
      }
      return {
        body: {
          added: true,
          invited: false,
          contact: { id: 5, alias_name: 'Bob', name: 'Bob', username: null, phone: '+4915100000002', avatar: null, is_deleted_contact: false, deleted: false },
        },
      };
    },
  });
  render(<AddContactModal onClose={onClose} />);
  await user.type(screen.getByLabelText('Phone number'), '+4915100000002');
  await user.type(screen.getByLabelText('Name'), 'Bob');
  await user.click(screen.getByRole('button', { name: 'Add contact' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('This contact has already been added.');
  await user.click(screen.getByRole('button', { name: 'Add contact' }));
  await screen.findByRole('button', { name: 'Add contact' });
  expect(onClose).toHaveBeenCalled();
  expect(useContactsStore.getState().contacts.map((contact) => contact.id)).toEqual([5]);
});
