import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { initTestI18n, mockFetch } from '@messenger/shared/testing';
import { useAuthStore, useContactsStore, useUsersStore, type Chat, type Contact, type Me } from '@messenger/shared';
import '../../i18n';
import { PersonPanel } from './PersonPanel';

beforeAll(async () => {
  await initTestI18n();
});

const chat = { id: 7, chat_type: 'private', participants: [1, 2] } as Chat;
const anna: Contact = { id: 2, alias_name: 'Anna', name: 'Anna B.', username: null, phone: '+4915100000002', avatar: null, is_deleted_contact: false, deleted: false };

beforeEach(() => {
  useAuthStore.setState({ user: { id: 1, role: 0 } as Me, hasSession: true });
  useUsersStore.setState({ profiles: {} });
  useContactsStore.setState({ contacts: [anna], loaded: true });
  mockFetch({});
});

test('the contact name field follows a rename made elsewhere, unless it was edited here', async () => {
  render(<PersonPanel chat={chat} onClose={() => undefined} />, { wrapper: MemoryRouter });
  const alias = screen.getByLabelText('Name in your contacts');
  expect(alias).toHaveValue('Anna');
  act(() => useContactsStore.setState({ contacts: [{ ...anna, alias_name: 'Annie' }] }));
  expect(alias).toHaveValue('Annie');
  expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();

  await userEvent.clear(alias);
  await userEvent.type(alias, 'Ann from work');
  act(() => useContactsStore.setState({ contacts: [{ ...anna, alias_name: 'A.' }] }));
  expect(alias).toHaveValue('Ann from work');
});
