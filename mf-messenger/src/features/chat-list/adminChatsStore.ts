import { create } from 'zustand';
import { staffApi, useUsersStore, type Chat } from '@messenger/shared';

/**
 * Admins' view of every secret chat (spec §2 "Show secret chats", `GET /api/chat/list/all`), kept apart from
 * the admin's own chats so that looking at a chat never makes them a member of anything.
 */
export interface AdminChatsState {
  showSecret: boolean;
  chats: Chat[];
  loaded: boolean;
  setShowSecret(show: boolean): void;
  load(): Promise<void>;
}

export const useAdminChatsStore = create<AdminChatsState>((set) => ({
  showSecret: false,
  chats: [],
  loaded: false,
  setShowSecret: (showSecret) => set({ showSecret }),
  load: async () => {
    const { chats, users } = await staffApi.secretChats();
    useUsersStore.getState().upsert(users);
    set({ chats, loaded: true });
  },
}));
