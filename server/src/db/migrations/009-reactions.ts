import type { Migration } from './index.js';

/** Issue 14: reactions to messages, one per person per message (a new one replaces theirs). */
export const reactions: Migration = {
  version: 9,
  name: '009-reactions',
  statements: [
    `CREATE TABLE message_reactions (
       message_id bigint NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
       user_id bigint NOT NULL REFERENCES users (id),
       emoji text NOT NULL,
       created_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (message_id, user_id)
     )`,
    `CREATE INDEX message_reactions_user ON message_reactions (user_id)`,
  ],
};
