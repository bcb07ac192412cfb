import type { Migration } from './index.js';

/**
 * Who a group's owner removed: the group's code no longer lets them back in (it is meant to be passed around, and
 * a secret group has no other way in), until the owner adds them again. Leaving of one's own accord is not here.
 */
export const chatRemovals: Migration = {
  version: 14,
  name: '014-chat-removals',
  statements: [
    `CREATE TABLE chat_removals (
      chat_id bigint NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
      user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      removed_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (chat_id, user_id)
    )`,
  ],
};
