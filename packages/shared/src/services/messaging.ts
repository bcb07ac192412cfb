import { errorText } from '../i18n';
import type { ChatMessage, FileInfo, Message, MessageMeta, MessageType } from '../model/types';
import { SEND_CANCELLED, type OutgoingMessage } from '../events/chat-socket';
import { ApiError } from '../api/errors';
import { outbox, type OutboxEntry } from '../storage/outbox';
import { useAuthStore } from '../stores/auth';
import { useChatsStore } from '../stores/chats';
import { useMessagesStore } from '../stores/messages';
import { config } from '../config';
import { chatSocket } from './sockets';
import { newClientId } from './client-id';

export interface NewMessage {
  chatId: number;
  type?: Exclude<MessageType, 'call'>;
  text?: string;
  file?: FileInfo;
  meta?: MessageMeta;
  /** The message this one answers. */
  replyTo?: Pick<Message, 'id' | 'sender_id' | 'type' | 'text' | 'file'> | null;
}

let placeholderId = 0;

function me(): number {
  const user = useAuthStore.getState().user;
  if (!user) throw new Error('not signed in');
  return user.id;
}

function pendingMessage(chatId: number, fields: Partial<ChatMessage>): ChatMessage {
  return {
    id: --placeholderId,
    chat_id: chatId,
    sender_id: me(),
    client_id: newClientId(),
    type: 'text',
    text: '',
    file_path: null,
    file: null,
    meta: {},
    reply_to: null,
    forwarded_from: null,
    created_at: new Date().toISOString(),
    expires_at: null,
    edited_at: null,
    reactions: [],
    mentions: [],
    state: 'sending',
    ...fields,
  };
}

/**
 * Sends a message of any type: it shows at once as "sending", is kept in the outbox (so a reload does not lose
 * it), goes over the chat socket with a fresh client id, and becomes "sent" when the server acknowledges it
 * after commit — or "failed" if the server refuses it, to be retried with the same client id.
 */
export function sendMessage(input: NewMessage): string {
  const type = input.type ?? 'text';
  const text = (input.text ?? '').trim();
  const message = pendingMessage(input.chatId, {
    type,
    text,
    file: input.file ?? null,
    file_path: input.file?.path ?? null,
    meta: input.meta ?? {},
    reply_to: input.replyTo
      ? { id: input.replyTo.id, sender_id: input.replyTo.sender_id, type: input.replyTo.type, text: input.replyTo.text, file: input.replyTo.file }
      : null,
  });
  const frame: OutgoingMessage = {
    client_id: message.client_id,
    chat_id: input.chatId,
    message_type: type,
    text,
    ...(input.file ? { file_path: input.file.path } : {}),
    ...(input.meta && Object.keys(input.meta).length > 0 ? { meta: input.meta } : {}),
    ...(input.replyTo ? { reply_to_id: input.replyTo.id } : {}),
  };
  enqueue({ message, frame });
  // Sent: the next keystroke in this chat is a new message being typed, and says so at once.
  lastTypingSignal.delete(input.chatId);
  return message.client_id;
}

/** When "typing" last went to each chat from this tab. */
const lastTypingSignal = new Map<number, number>();

/**
 * The person is typing in a chat: the other members see "… is typing" (docs/protocol.md). Called on every
 * keystroke; sends at most one signal per chat every `typingSignalEveryMs`.
 */
export function notifyTyping(chatId: number, now = Date.now()): void {
  // Only a member writes to a chat (staff may look into chats they are not in; the server would refuse it).
  const me = useAuthStore.getState().user?.id;
  const chat = useChatsStore.getState().chats.find((candidate) => candidate.id === chatId);
  if (me === undefined || !chat?.participants.includes(me)) return;
  const last = lastTypingSignal.get(chatId);
  if (last !== undefined && now - last < config.typingSignalEveryMs) return;
  lastTypingSignal.set(chatId, now);
  chatSocket.signal({ type: 'typing', chat_id: chatId });
}

/** Kept for the composer's plain-text path. */
export function sendText(chatId: number, text: string): string {
  return sendMessage({ chatId, text });
}

/** Forwards a message to each of the given chats (one new message per chat). */
export function forwardMessage(original: Message, chatIds: number[], originalAuthorName: string): void {
  for (const chatId of chatIds) {
    const message = pendingMessage(chatId, {
      type: original.type,
      text: original.text,
      file: original.file,
      file_path: original.file_path,
      meta: original.meta,
      forwarded_from: original.forwarded_from ?? { user_id: original.sender_id, name: originalAuthorName },
    });
    enqueue({ message, frame: { client_id: message.client_id, chat_id: chatId, forward_message_id: original.id } });
  }
}

/** Sends a failed message again, with its original client id, so the server stores it at most once. */
export function retrySend(message: ChatMessage): void {
  const entry = outbox.load(me()).find((known) => known.frame.client_id === message.client_id);
  if (!entry) return;
  useMessagesStore.getState().markSending(message.client_id, message.chat_id);
  deliver({ ...entry, message: { ...entry.message, state: 'sending' } });
}

/**
 * Drops a message that was never stored: one the server refused, or one still queued that never left this
 * browser. False (and nothing changes) for one whose frame went out without an answer yet: the server may have
 * stored and delivered it, and it will show as sent or failed when the answer comes.
 */
export function discardUnsent(message: ChatMessage): boolean {
  const userId = me();
  if (message.state !== 'failed') {
    const entry = outbox.load(userId).find((known) => known.frame.client_id === message.client_id);
    if (entry?.written || !chatSocket.cancel(message.client_id)) return false;
  }
  outbox.remove(userId, message.client_id);
  useMessagesStore.getState().discard(message.client_id, message.chat_id);
  return true;
}

/** After a reload: shows the unsent messages again and sends the queued ones, in the order they were written. */
export function restoreOutbox(): void {
  const userId = me();
  for (const entry of outbox.load(userId)) {
    useMessagesStore.getState().addPending(entry.message);
    if (entry.message.state !== 'failed' && !chatSocket.isPending(entry.frame.client_id)) deliver(entry);
  }
}

function enqueue(entry: OutboxEntry): void {
  outbox.put(me(), entry);
  useMessagesStore.getState().addPending(entry.message);
  deliver(entry);
}

function deliver(entry: OutboxEntry): void {
  const userId = me();
  chatSocket
    .send(entry.frame, () => outbox.markWritten(userId, entry.frame.client_id))
    .then((stored) => {
      outbox.remove(userId, entry.frame.client_id);
      useMessagesStore.getState().receive(stored);
      useChatsStore.getState().noteOwnMessage(stored);
    })
    .catch((error: unknown) => {
      // Discarded before it left: already out of the outbox and the thread.
      if (error instanceof ApiError && error.code === SEND_CANCELLED) return;
      const reason = errorText(error, 'common:errors.generic');
      outbox.put(userId, { ...entry, message: { ...entry.message, state: 'failed', error: reason } });
      useMessagesStore.getState().markFailed(entry.frame.client_id, entry.frame.chat_id, reason);
    });
}
