import { ApiError } from '../api/errors';
import type { ChatMessage } from '../model/types';
import { useAuthStore } from '../stores/auth';
import { useChatsStore } from '../stores/chats';
import { useMessagesStore } from '../stores/messages';
import { chatSocket } from './sockets';
import { newClientId } from './client-id';

let placeholderId = 0;

/**
 * Sends a text: it shows at once as "sending", goes over the chat socket with a fresh client id, and becomes
 * "sent" when the server acknowledges it (after commit) — or "failed", to be retried with the same client id.
 */
export function sendText(chatId: number, text: string): string {
  const me = useAuthStore.getState().user;
  if (!me) throw new Error('not signed in');
  const message: ChatMessage = {
    id: --placeholderId,
    chat_id: chatId,
    sender_id: me.id,
    client_id: newClientId(),
    type: 'text',
    text,
    file_path: null,
    created_at: new Date().toISOString(),
    expires_at: null,
    state: 'sending',
  };
  useMessagesStore.getState().addPending(message);
  deliver(message);
  return message.client_id;
}

/** Sends a failed message again, with its original client id, so the server stores it at most once. */
export function retrySend(message: ChatMessage): void {
  useMessagesStore.getState().markSending(message.client_id, message.chat_id);
  deliver(message);
}

function deliver(message: ChatMessage): void {
  chatSocket
    .send({ client_id: message.client_id, chat_id: message.chat_id, text: message.text })
    .then((stored) => {
      useMessagesStore.getState().receive(stored);
      useChatsStore.getState().noteOwnMessage(stored);
    })
    .catch((error: unknown) => {
      const reason = error instanceof ApiError ? error.message : String(error);
      useMessagesStore.getState().markFailed(message.client_id, message.chat_id, reason);
    });
}
