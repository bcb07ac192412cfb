import { useMemo } from 'react';
import {
  chatDisplay,
  matchesSearch,
  useAuthStore,
  useChatsStore,
  useContactsStore,
  useSearchStore,
  useUsersStore,
  type Chat,
} from '@messenger/shared';

export interface ChatRowModel {
  chat: Chat;
  name: string;
  avatar: string | null;
}

/** The chat list as rows: named (contact, else profile, else chat name) and filtered by the side-bar search. */
export function useChatRows(): { rows: ChatRowModel[]; loaded: boolean; searching: boolean } {
  const me = useAuthStore((state) => state.user?.id ?? 0);
  const chats = useChatsStore((state) => state.chats);
  const loaded = useChatsStore((state) => state.loaded);
  const contacts = useContactsStore((state) => state.contacts);
  const profiles = useUsersStore((state) => state.profiles);
  const query = useSearchStore((state) => state.query);
  const rows = useMemo(
    () =>
      chats
        .map((chat) => ({ chat, ...chatDisplay(chat, me, contacts, profiles) }))
        .filter((row) => matchesSearch(query, row.name)),
    [chats, me, contacts, profiles, query],
  );
  return { rows, loaded, searching: query !== '' };
}
