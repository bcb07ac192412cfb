import type { Me, PublicUser } from '../model/types';
import { useAuthStore } from './auth';
import { useContactsStore } from './contacts';
import { applyUserUpdated } from './profile-updates';
import { useUsersStore } from './users';

const profile = (fields: Partial<PublicUser>): PublicUser => ({ id: 2, name: 'Old', username: null, avatar: null, role: 0, deleted: false, ...fields });

beforeEach(() => {
  useAuthStore.setState({ user: { id: 1, name: 'Me', username: 'me', phone: '+4915100000001', avatar: null } as Me });
  useUsersStore.setState({ profiles: { 2: profile({ phone: '+4915100000002' }) } });
  useContactsStore.setState({
    loaded: true,
    contacts: [{ id: 2, alias_name: 'My friend', name: 'Old', username: null, phone: '+4915100000002', avatar: null, is_deleted_contact: false, deleted: false }],
  });
});

test('a profile change of someone I see updates their cached profile and contact entry, keeping my alias and the phone I know', () => {
  applyUserUpdated(profile({ name: 'New name', username: 'newbie', avatar: '2026/01/pic.png' }));
  expect(useUsersStore.getState().profiles[2]).toMatchObject({ name: 'New name', username: 'newbie', avatar: '2026/01/pic.png', phone: '+4915100000002' });
  expect(useContactsStore.getState().contacts[0]).toMatchObject({ alias_name: 'My friend', name: 'New name', username: 'newbie', avatar: '2026/01/pic.png' });
  expect(useAuthStore.getState().user!.name).toBe('Me');
});

test('my own change from another tab updates my profile here', () => {
  applyUserUpdated({ ...profile({ name: 'Me again', avatar: 'a.png' }), id: 1 });
  expect(useAuthStore.getState().user).toMatchObject({ id: 1, name: 'Me again', avatar: 'a.png', phone: '+4915100000001' });
});

test('someone deleted by staff leaves my contacts list (its entry is marked, as a fresh load marks it)', () => {
  applyUserUpdated(profile({ deleted: true }));
  expect(useContactsStore.getState().contacts[0]).toMatchObject({ id: 2, alias_name: 'My friend', deleted: true });
});
