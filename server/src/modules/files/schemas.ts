import Type from 'typebox';
import { Id } from '../../http/schema-types.js';

export const TokensBody = Type.Object(
  {
    paths: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 }),
    /** Admins (role ≥ 2): tokens for any stored file, for the admin file URLs. */
    admin: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** The media token is the key of these URLs; no Authorization header is needed (or read). */
export const ReceiveQuery = Type.Object({ token: Type.String({ minLength: 1, maxLength: 2048 }) });

export const SpecificFileQuery = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 2048 }),
  path: Type.String({ minLength: 1, maxLength: 200 }),
});

/** A folder of the file storage, '' for the root; its form is checked in the service (400 `invalid_path`). */
export const TreeQuery = Type.Object({ path: Type.Optional(Type.String({ maxLength: 1024 })) });

/** Which call a recording chunk belongs to: its chat and its `call` message. */
export const MeetAudioQuery = Type.Object({ chat_id: Id, message_id: Id });
