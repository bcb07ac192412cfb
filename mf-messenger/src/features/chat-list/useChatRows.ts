import { useMemo } from 'react';
import {
  Role,
  chatDisplay,
  isListed,
  matchesSearch,
  useAuthStore,
  useChatsStore,
  useContactsStore,
  useSearchStore,
  useUsersStore,
  type Chat,
} from '@messenger/shared';
import { useAdminChatsStore } from './adminChatsStore';

export interface ChatRowModel {
  chat: Chat;
  name: string;
  avatar: string | null;
}

/**
 * The chat list as rows: named (contact, else profile, else chat name) and filtered by the side-bar search.
 * Spec §4 for admins: their normal list keeps private chats only; in secret mode it shows every secret chat
 * (groups only).
 */
export function useChatRows(): { rows: ChatRowModel[]; loaded: boolean; searching: boolean } {
  const me = useAuthStore((state) => state.user?.id ?? 0);
  const isAdmin = useAuthStore((state) => (state.user?.role ?? 0) >= Role.admin);
  const secretMode = useAdminChatsStore((state) => state.showSecret) && isAdmin;
  const own = useChatsStore((state) => state.chats);
  const expiredRows = useChatsStore((state) => state.expiredRows);
  const ownLoaded = useChatsStore((state) => state.loaded);
  const secret = useAdminChatsStore((state) => state.chats);
  const secretLoaded = useAdminChatsStore((state) => state.loaded);
  const chats = useMemo(
    () => {
      if (secretMode) return secret.filter((chat) => chat.chat_type === 'group');
      const listed = own.filter((chat) => isListed(chat, expiredRows));
      return isAdmin ? listed.filter((chat) => chat.chat_type === 'private') : listed;
    },
    [secretMode, secret, own, isAdmin, expiredRows],
  );
  const loaded = secretMode ? secretLoaded : ownLoaded;
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
