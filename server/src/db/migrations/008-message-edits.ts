import type { Migration } from './index.js';

/** Issue 14: a message's sender may edit its text; when they last did (null: never edited). */
export const messageEdits: Migration = {
  version: 8,
  name: '008-message-edits',
  statements: [`ALTER TABLE messages ADD COLUMN edited_at timestamptz`],
};
