import type { FlowEvent } from '../model/events';
import type { PublicUser } from '../model/types';
import { useAuthStore } from './auth';
import { useContactsStore } from './contacts';
import { useUsersStore } from './users';

/**
 * `user-updated`: someone changed their name, username or picture (or staff renamed, re-roled or deleted them). Everything that shows them follows — the
 * cached profile (chat list, header, members, toasts, calls), their contact entry (the alias stays mine), and,
 * when it is me in another tab, my own profile.
 */
export function applyUserUpdated(user: PublicUser): void {
  const cached = useUsersStore.getState().profiles[user.id];
  // The event carries the phone only when I may see it; a cached copy that has it keeps it.
  useUsersStore.getState().upsert([{ ...user, phone: user.phone ?? cached?.phone }]);
  const contact = useContactsStore.getState().contacts.find((candidate) => candidate.id === user.id);
  // Deleted (by staff): the entry leaves the contacts list and its search, as after a fresh load.
  if (contact) useContactsStore.getState().upsert({ ...contact, name: user.name, username: user.username, avatar: user.avatar, deleted: user.deleted });
  const me = useAuthStore.getState().user;
  if (me && me.id === user.id) useAuthStore.getState().setUser({ ...me, name: user.name, username: user.username, avatar: user.avatar });
}

/**
 * `contact-added`, `contact-updated`, `contact-removed`: my contacts changed (in this tab or another). The contact
 * list follows, and so does the person's profile, as I now see it: a phone I typed in shows wherever they do, and
 * goes with the contact.
 */
export function applyContactChange(event: FlowEvent<'contact-added' | 'contact-updated' | 'contact-removed'>): void {
  const contacts = useContactsStore.getState();
  if (event.event_type === 'contact-removed') {
    contacts.drop((event as FlowEvent<'contact-removed'>).additional_info.contact_id);
  } else {
    contacts.upsert((event as FlowEvent<'contact-added' | 'contact-updated'>).additional_info.contact);
  }
  useUsersStore.getState().upsert([event.additional_info.user]);
}
