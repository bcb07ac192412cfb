import type { Migration } from './index.js';

/**
 * Issue 14, Web Push: one row per browser that asked to be told with the tab closed. `login_id` is the login
 * (refresh-token family) that subscribed — a login is one browser, so one row each: signing out of it, or the
 * login expiring, ends its pushes.
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
      -- Pushes in a row its push service did not take (unreachable, 5xx): past a few, the subscription goes.
      failures integer NOT NULL DEFAULT 0,
      -- When the browser last sent it (each session start does): a person's oldest go past MAX_PER_PERSON.
      saved_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id)`,
    // One browser per login: a login subscribing again replaces its earlier endpoint.
    `CREATE UNIQUE INDEX push_subscriptions_login ON push_subscriptions (login_id)`,
  ],
};
