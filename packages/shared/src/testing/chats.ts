import type { Chat } from '../model/types';

/** A chat as the server sends it: a private chat of people 1 and 2 with nothing in it, unless `fields` say otherwise. */
export function chatFixture(fields: Partial<Chat> = {}): Chat {
  return {
    id: 7,
    chat_type: 'private',
    is_secret: false,
    name: '',
    avatar: null,
    chat_avatar: null,
    participants: [1, 2],
    owner_id: null,
    invite_link: null,
    invite_code: null,
    interval: 0,
    created_at: '2026-01-01T00:00:00Z',
    last_message: null,
    last_message_at: null,
    unread_messages: 0,
    unread_mentions: 0,
    notifications: true,
    read_by_others_up_to: 0,
    last_message_deleted: false,
    ...fields,
  };
}
