import type { Migration } from './index.js';

/** Issue 3: uploaded files, message attachments (meta, replies, forwards), expiry, guests. */
export const groupsFiles: Migration = {
  version: 2,
  name: '002-groups-files',
  statements: [
    `CREATE TABLE files (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      owner_id bigint NOT NULL REFERENCES users (id),
      path text NOT NULL UNIQUE,
      original_name text NOT NULL,
      mime text NOT NULL,
      size bigint NOT NULL CHECK (size >= 0),
      created_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz
    )`,
    `CREATE INDEX files_owner ON files (owner_id) WHERE deleted_at IS NULL`,

    `ALTER TABLE messages ADD COLUMN meta jsonb NOT NULL DEFAULT '{}'::jsonb`,
    `ALTER TABLE messages ADD COLUMN reply_to_id bigint REFERENCES messages (id) ON DELETE SET NULL`,
    `ALTER TABLE messages ADD COLUMN forwarded_from_id bigint REFERENCES users (id)`,
    `ALTER TABLE messages ADD CONSTRAINT messages_file_path_fkey FOREIGN KEY (file_path) REFERENCES files (path)`,
    `CREATE INDEX messages_file_path ON messages (file_path) WHERE file_path IS NOT NULL`,
    // What the sweeper looks for every second.
    `CREATE INDEX messages_expiring ON messages (expires_at) WHERE deleted_at IS NULL AND expires_at IS NOT NULL`,
    `CREATE INDEX messages_sender ON messages (sender_id)`,

    `CREATE INDEX users_avatar ON users (avatar) WHERE avatar IS NOT NULL`,
    `CREATE INDEX chats_avatar ON chats (avatar) WHERE avatar IS NOT NULL`,

    // Guests made per address, for the hourly cap on `POST /user/link`.
    `CREATE TABLE guest_signups (
      ip text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX guest_signups_ip ON guest_signups (ip, created_at DESC)`,
  ],
};
