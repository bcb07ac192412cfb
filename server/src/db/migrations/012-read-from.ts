import type { Migration } from './index.js';

/**
 * Issue 14, read receipts: the newest message of the chat when the member joined. A newcomer starts with the
 * history counted as read (no unread backlog), but has not read it: they count as a reader only past it.
 */
export const readFrom: Migration = {
  version: 12,
  name: '012-read-from',
  statements: [`ALTER TABLE chat_members ADD COLUMN read_from_message_id bigint NOT NULL DEFAULT 0`],
};
