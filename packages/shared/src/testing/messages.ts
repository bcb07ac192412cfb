import type { Message } from '../model/types';

/** A stored text message as the server sends it (id `id`, text `m<id>`, one minute apart by id), for unit tests. */
export function storedMessage(id: number, chatId: number, senderId: number, extra: Partial<Message> = {}): Message {
  return {
    id,
    chat_id: chatId,
    sender_id: senderId,
    client_id: `c${id}`,
    type: 'text',
    text: `m${id}`,
    file_path: null,
    file: null,
    meta: {},
    reply_to: null,
    forwarded_from: null,
    created_at: new Date(Date.UTC(2026, 0, 1, 0, id)).toISOString(),
    expires_at: null,
    edited_at: null,
    reactions: [],
    mentions: [],
    ...extra,
  };
}
