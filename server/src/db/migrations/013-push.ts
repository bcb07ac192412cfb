import type { Migration } from './index.js';

/**
 * Issue 14, Web Push: one row per browser that asked to be told with the tab closed. `login_id` is the login
 * (refresh-token family) that subscribed: signing out of it, or the login expiring, ends its pushes.
 */
export const push: Migration = {
  version: 13,
  name: '013-push',
  statements: [
    `CREATE TABLE push_subscriptions (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      login_id text NOT NULL,
      endpoint text NOT NULL UNIQUE,
      p256dh text NOT NULL,
      auth text NOT NULL,
      language text NOT NULL DEFAULT 'en',
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id)`,
    `CREATE INDEX push_subscriptions_login ON push_subscriptions (login_id)`,
  ],
};
