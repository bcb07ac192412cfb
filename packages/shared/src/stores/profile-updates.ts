import type { PublicUser } from '../model/types';
import { useAuthStore } from './auth';
import { useContactsStore } from './contacts';
import { useUsersStore } from './users';

/**
 * `user-updated`: someone changed their name, username or picture. Everything that shows them follows — the
 * cached profile (chat list, header, members, toasts, calls), their contact entry (the alias stays mine), and,
 * when it is me in another tab, my own profile.
 */
export function applyUserUpdated(user: PublicUser): void {
  const cached = useUsersStore.getState().profiles[user.id];
  // The event carries the phone only when I may see it; a cached copy that has it keeps it.
  useUsersStore.getState().upsert([{ ...user, phone: user.phone ?? cached?.phone }]);
  const contact = useContactsStore.getState().contacts.find((candidate) => candidate.id === user.id);
  if (contact) useContactsStore.getState().upsert({ ...contact, name: user.name, username: user.username, avatar: user.avatar });
  const me = useAuthStore.getState().user;
  if (me && me.id === user.id) useAuthStore.getState().setUser({ ...me, name: user.name, username: user.username, avatar: user.avatar });
}
