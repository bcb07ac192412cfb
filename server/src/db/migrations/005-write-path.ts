import type { Migration } from './index.js';

/**
 * Issue 10: fewer index updates per message. Every message writes a row in `messages` and one event per member in
 * `user_events`; each index on them is one more write per row.
 */
export const writePath: Migration = {
  version: 5,
  name: '005-write-path',
  statements: [
    // (sender_id, client_id) is unique and leads with sender_id: it answers every lookup by sender on its own.
    `DROP INDEX IF EXISTS messages_sender`,
    // Events are only ever pruned by age, and they are written in age order: a BRIN index (a few pages for the
    // whole table, barely touched per insert) finds the old ones as well as a B-tree that grows with every event.
    `DROP INDEX IF EXISTS user_events_created`,
    `CREATE INDEX user_events_created ON user_events USING brin (created_at)`,
  ],
};
