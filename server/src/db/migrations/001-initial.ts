import type { Migration } from './index.js';

export const initial: Migration = {
  version: 1,
  name: '001-initial',
  statements: [
    `CREATE TABLE server_secrets (
      name text PRIMARY KEY,
      value text NOT NULL
    )`,
    `CREATE TABLE users (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      phone text UNIQUE,
      name text NOT NULL DEFAULT '',
      username text,
      avatar text,
      role smallint NOT NULL DEFAULT 0,
      temporary boolean NOT NULL DEFAULT false,
      invite_code text NOT NULL UNIQUE,
      invited_by bigint REFERENCES users (id),
      notes text NOT NULL DEFAULT '',
      blocked boolean NOT NULL DEFAULT false,
      deleted boolean NOT NULL DEFAULT false,
      is_muted boolean NOT NULL DEFAULT false,
      popup_notifications boolean NOT NULL DEFAULT true,
      sound_notifications boolean NOT NULL DEFAULT true,
      private_notifications boolean NOT NULL DEFAULT false,
      last_seq bigint NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE UNIQUE INDEX users_username_key ON users (lower(username)) WHERE username IS NOT NULL`,
    `CREATE INDEX users_invited_by ON users (invited_by) WHERE invited_by IS NOT NULL`,

    `CREATE TABLE otp_codes (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      phone text NOT NULL,
      code_hash text NOT NULL,
      ip text NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      consumed_at timestamptz
    )`,
    `CREATE INDEX otp_codes_phone ON otp_codes (phone, created_at DESC)`,
    `CREATE INDEX otp_codes_ip ON otp_codes (ip, created_at DESC)`,

    `CREATE TABLE refresh_tokens (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      family_id text NOT NULL,
      user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      token_hash text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      rotated_at timestamptz,
      revoked_at timestamptz
    )`,
    `CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id)`,

    `CREATE TABLE contacts (
      owner_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      alias_name text NOT NULL DEFAULT '',
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (owner_id, user_id)
    )`,
    `CREATE TABLE contact_invites (
      owner_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      phone text NOT NULL,
      alias_name text NOT NULL DEFAULT '',
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (owner_id, phone)
    )`,
    `CREATE INDEX contact_invites_phone ON contact_invites (phone)`,

    `CREATE TABLE chats (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      chat_type text NOT NULL CHECK (chat_type IN ('private', 'group')),
      is_secret boolean NOT NULL DEFAULT false,
      name text NOT NULL DEFAULT '',
      avatar text,
      owner_id bigint REFERENCES users (id),
      invite_code text UNIQUE,
      private_key text UNIQUE,
      interval_seconds integer NOT NULL DEFAULT 0,
      last_message_id bigint,
      last_message_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE TABLE chat_members (
      chat_id bigint NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
      user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      joined_at timestamptz NOT NULL DEFAULT now(),
      unread_count integer NOT NULL DEFAULT 0,
      last_read_message_id bigint NOT NULL DEFAULT 0,
      notifications boolean NOT NULL DEFAULT true,
      PRIMARY KEY (chat_id, user_id)
    )`,
    `CREATE INDEX chat_members_user ON chat_members (user_id)`,

    `CREATE TABLE messages (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      chat_id bigint NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
      sender_id bigint NOT NULL REFERENCES users (id),
      client_id uuid NOT NULL,
      type text NOT NULL CHECK (type IN ('text', 'image', 'audio', 'video', 'document', 'call')),
      text text NOT NULL DEFAULT '',
      file_path text,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz,
      deleted_at timestamptz
    )`,
    `CREATE UNIQUE INDEX messages_sender_client ON messages (sender_id, client_id)`,
    `CREATE INDEX messages_chat ON messages (chat_id, id DESC)`,

    `CREATE TABLE calls (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      chat_id bigint NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
      caller_id bigint NOT NULL REFERENCES users (id),
      room_id text NOT NULL,
      connected boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      ended_at timestamptz
    )`,
    `CREATE INDEX calls_chat ON calls (chat_id, created_at DESC)`,

    `CREATE TABLE user_events (
      user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      seq bigint NOT NULL,
      event_type text NOT NULL,
      payload jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, seq)
    )`,
    `CREATE INDEX user_events_created ON user_events (created_at)`,
  ],
};
