import type { Migration } from './index.js';

/** Calls: their state, the message that shows them in the chat, who took part, and recording. */
export const calls: Migration = {
  version: 4,
  name: '004-calls',
  statements: [
    `ALTER TABLE calls ADD COLUMN status text NOT NULL DEFAULT 'ended'
       CHECK (status IN ('ringing', 'active', 'ended', 'missed', 'rejected', 'busy'))`,
    `ALTER TABLE calls ADD COLUMN message_id bigint REFERENCES messages (id) ON DELETE SET NULL`,
    `ALTER TABLE calls ADD COLUMN recording boolean NOT NULL DEFAULT false`,
    // When a second person joined (the call's duration runs from here to ended_at).
    `ALTER TABLE calls ADD COLUMN answered_at timestamptz`,
    // Rows from before calls had a lifecycle are over; then one running call per chat at most (a second joins it).
    `UPDATE calls SET ended_at = created_at WHERE ended_at IS NULL`,
    `CREATE UNIQUE INDEX calls_one_running ON calls (chat_id) WHERE ended_at IS NULL`,
    `CREATE TABLE call_participants (
      call_id bigint NOT NULL REFERENCES calls (id) ON DELETE CASCADE,
      user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      joined_at timestamptz NOT NULL DEFAULT now(),
      left_at timestamptz,
      PRIMARY KEY (call_id, user_id)
    )`,
    `CREATE INDEX call_participants_user ON call_participants (user_id) WHERE left_at IS NULL`,
    `ALTER TABLE chats ADD COLUMN recording boolean NOT NULL DEFAULT false`,
    // Audio a participant's browser recorded of a call, in chunks (POST /file/upload/meet-audio).
    `CREATE TABLE call_recordings (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      call_id bigint NOT NULL REFERENCES calls (id) ON DELETE CASCADE,
      user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      file_path text NOT NULL REFERENCES files (path) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX call_recordings_call ON call_recordings (call_id)`,
  ],
};
