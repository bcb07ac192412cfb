import { useCallback } from 'react';
import { useNavigate } from '@messenger/router';
import { chatsApi, errorText, unlessGuest, useAuthStore, useChatsStore, useNotificationsStore } from '@messenger/shared';

/**
 * Opens the private chat with a person, creating it on first use (spec §4), and goes to it. A chat already in
 * the list opens without asking the server.
 */
export function useOpenPrivateChat(): (userId: number) => Promise<void> {
  const navigate = useNavigate();
  return useCallback(
    async (userId: number) => {
      const me = useAuthStore.getState().user;
      const existing = useChatsStore
        .getState()
        .chats.find((chat) => chat.chat_type === 'private' && chat.participants.includes(userId) && chat.participants.every((id) => id === userId || id === me?.id));
      if (existing) {
        navigate(`/${existing.id}`);
        return;
      }
      // Guests may not create chats (docs/api.md): they are offered to sign in instead of being refused.
      if (me?.temporary) {
        unlessGuest(true, () => undefined);
        return;
      }
      try {
        const chat = await chatsApi.createPrivate(userId);
        useChatsStore.getState().upsert(chat);
        navigate(`/${chat.id}`);
      } catch (error) {
        useNotificationsStore.getState().push({ kind: 'error', text: errorText(error, 'messenger:contacts.openError') });
      }
    },
    [navigate],
  );
}
