import type { Migration } from './index.js';

/** Issue 4: staff passwords, the sign-in tickets between the two passwords, wrong-password limits, statistics. */
export const staff: Migration = {
  version: 3,
  name: '003-staff',
  statements: [
    // scrypt hashes (see security/passwords.ts); both set = the person signs in with passwords, not by SMS.
    `ALTER TABLE users ADD COLUMN password_hash text`,
    `ALTER TABLE users ADD COLUMN extra_password_hash text`,

    // The first password passed: a random ticket (stored as SHA-256) for the extra password, 5 minutes, single use.
    `CREATE TABLE sign_in_tickets (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      ticket_hash text NOT NULL UNIQUE,
      phone text NOT NULL,
      user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      consumed_at timestamptz
    )`,
    `CREATE INDEX sign_in_tickets_expires ON sign_in_tickets (expires_at)`,

    // Password tries, per account and per address, in the database so that several server processes agree.
    // A try is written before the password is checked and removed when it was right: what stays are failures.
    `CREATE TABLE password_attempts (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id bigint REFERENCES users (id) ON DELETE CASCADE,
      ip text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX password_attempts_user ON password_attempts (user_id, created_at DESC) WHERE user_id IS NOT NULL`,
    `CREATE INDEX password_attempts_ip ON password_attempts (ip, created_at DESC)`,

    // Statistics: who created which secret chat, who started which call, who joined when.
    `CREATE INDEX chats_secret_owner ON chats (owner_id, created_at) WHERE is_secret`,
    `CREATE INDEX calls_caller ON calls (caller_id, created_at)`,
    `CREATE INDEX calls_created ON calls (created_at)`,
    `CREATE INDEX users_created ON users (created_at)`,
  ],
};
