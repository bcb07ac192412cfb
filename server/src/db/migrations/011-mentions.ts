import type { Migration } from './index.js';

/** Issue 14: @mentions in groups — whom a message mentions, and each member's unread mentions per chat. */
export const mentions: Migration = {
  version: 11,
  name: '011-mentions',
  statements: [
    `ALTER TABLE messages ADD COLUMN mentions bigint[]`,
    `ALTER TABLE chat_members ADD COLUMN unread_mentions integer NOT NULL DEFAULT 0`,
  ],
};
