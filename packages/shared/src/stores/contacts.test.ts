import { contactsApi } from '../api/endpoints';
import type { Me } from '../model/types';
import { useAuthStore } from './auth';
import { useContactsStore } from './contacts';

const person = (temporary: boolean) => ({ id: 1, name: 'A', temporary, role: 0 }) as Me;

afterEach(() => {
  jest.restoreAllMocks();
  useContactsStore.getState().reset();
  useAuthStore.getState().setUser(null);
});

test('a guest has no contacts and never asks the server for them (the route refuses guests)', async () => {
  const list = jest.spyOn(contactsApi, 'list').mockResolvedValue([]);
  useAuthStore.getState().setUser(person(true));
  await useContactsStore.getState().load();
  expect(list).not.toHaveBeenCalled();
  expect(useContactsStore.getState()).toMatchObject({ contacts: [], loaded: true });
});

test('a signed-in person loads their contacts', async () => {
  const list = jest.spyOn(contactsApi, 'list').mockResolvedValue([{ id: 2, alias_name: 'B' } as never]);
  useAuthStore.getState().setUser(person(false));
  await useContactsStore.getState().load();
  expect(list).toHaveBeenCalledTimes(1);
  expect(useContactsStore.getState().contacts.map((contact) => contact.id)).toEqual([2]);
});
