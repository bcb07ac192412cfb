import type { Migration } from './index.js';

/**
 * Issue 14: presence. `online_until`: a node holding a live socket of the person keeps it in the future (renewed
 * every minute; a node that dies stops renewing, so nobody stays online for ever); `last_seen_at`: when they were
 * last known online; `last_seen_privacy`: who sees those (everyone, their contacts, nobody).
 */
export const presence: Migration = {
  version: 10,
  name: '010-presence',
  statements: [
    `ALTER TABLE users ADD COLUMN online_until timestamptz`,
    `ALTER TABLE users ADD COLUMN last_seen_at timestamptz`,
    `ALTER TABLE users ADD COLUMN last_seen_privacy text NOT NULL DEFAULT 'everyone'
       CHECK (last_seen_privacy IN ('everyone', 'contacts', 'nobody'))`,
  ],
};
