import type { Migration } from './index.js';

/**
 * Issue 14: presence, in its own table so that writing it never takes the `users` row locks the event log uses.
 * `online_until`: a node holding a live socket of the person keeps it in the future (renewed every minute; a node
 * that dies stops renewing, so nobody stays online for ever); `last_seen_at`: when they were last known online.
 * `users.last_seen_privacy`: who sees those (everyone, their contacts, nobody).
 */
export const presence: Migration = {
  version: 10,
  name: '010-presence',
  statements: [
    `CREATE TABLE user_presence (
       user_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
       online_until timestamptz,
       last_seen_at timestamptz NOT NULL DEFAULT now()
     )`,
    `ALTER TABLE users ADD COLUMN last_seen_privacy text NOT NULL DEFAULT 'everyone'
       CHECK (last_seen_privacy IN ('everyone', 'contacts', 'nobody'))`,
  ],
};
