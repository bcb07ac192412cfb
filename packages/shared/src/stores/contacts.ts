import { create } from 'zustand';
import type { Contact } from '../model/types';
import { contactsApi, type AddContactInput } from '../api/endpoints';
import { useAuthStore } from './auth';
import { displayName } from '../rules/display-name';

export interface ContactsState {
  contacts: Contact[];
  loaded: boolean;
  load(): Promise<void>;
  /** Shows contacts kept from an earlier visit (warm start) until the server's arrive; ignored once they have. */
  hydrate(contacts: Contact[]): void;
  add(input: AddContactInput): Promise<{ added: boolean; invited: boolean }>;
  rename(userId: number, name: string): Promise<void>;
  remove(userId: number): Promise<void>;
  upsert(contact: Contact): void;
  /** Forgets a contact here (removed on the server, by this tab or another). */
  drop(userId: number): void;
  /** Sorts again by name (names that fall back to the phone change when the phone rules arrive). */
  resort(): void;
  reset(): void;
}

function sorted(contacts: Contact[]): Contact[] {
  const name = (contact: Contact) => displayName(contact).toLocaleLowerCase();
  return [...contacts].sort((a, b) => name(a).localeCompare(name(b)) || a.id - b.id);
}

export const useContactsStore = create<ContactsState>((set, get) => ({
  contacts: [],
  loaded: false,
  load: async () => {
    // Guests have no contacts and are refused the route (docs/api.md): nothing to ask.
    if (useAuthStore.getState().user?.temporary) {
      set({ contacts: [], loaded: true });
      return;
    }
    const contacts = await contactsApi.list();
    set({ contacts: sorted(contacts), loaded: true });
  },
  hydrate: (contacts) => {
    if (get().loaded) return;
    set({ contacts: sorted(contacts), loaded: true });
  },
  add: async (input) => {
    const result = await contactsApi.add(input);
    if (result.contact) get().upsert(result.contact);
    return { added: result.added, invited: result.invited };
  },
  rename: async (userId, name) => {
    get().upsert(await contactsApi.rename(userId, name));
  },
  remove: async (userId) => {
    await contactsApi.remove(userId);
    get().drop(userId);
  },
  upsert: (contact) =>
    set((state) => ({ contacts: sorted([...state.contacts.filter((known) => known.id !== contact.id), contact]) })),
  drop: (userId) => set((state) => ({ contacts: state.contacts.filter((contact) => contact.id !== userId) })),
  resort: () => set((state) => ({ contacts: sorted(state.contacts) })),
  reset: () => set({ contacts: [], loaded: false }),
}));
