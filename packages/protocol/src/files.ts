import Type, { type Static } from 'typebox';
import { Id } from './common.js';

/** A stored file as its uploader gets it back (spec §3 upload result): the path is its name from then on. */
export const FileInfo = Type.Object({
  path: Type.String(),
  /** The name it was uploaded with. */
  name: Type.String(),
  size: Type.Integer(),
  mime: Type.String(),
});
export type FileInfo = Static<typeof FileInfo>;

/** One entry of a folder of the file storage (admins). */
export const FileTreeEntry = Type.Object({
  /** The storage name (generated for files). */
  name: Type.String(),
  /** Relative to the storage root, as the files table has it. */
  path: Type.String(),
  type: Type.Union([Type.Literal('dir'), Type.Literal('file')]),
  /** Bytes for a file; 0 for a folder. */
  size: Type.Integer(),
  mime: Type.Optional(Type.String()),
  owner_id: Type.Optional(Type.Integer()),
  /** A file's name when it was uploaded. */
  original_name: Type.Optional(Type.String()),
});
export type FileTreeEntry = Static<typeof FileTreeEntry>;

/** At most this many entries of one folder are listed (folders first, then by name); `truncated` says when more. */
export const FILE_TREE_LIMIT = 2000;

export const FileTree = Type.Object({
  path: Type.String(),
  entries: Type.Array(FileTreeEntry),
  truncated: Type.Boolean(),
});
export type FileTree = Static<typeof FileTree>;

export const TokensBody = Type.Object(
  {
    paths: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 }),
    /** Admins (role ≥ 2): tokens for any stored file, for the admin file URLs. */
    admin: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** A folder of the file storage, '' for the root; its form is checked by the server (400 `invalid_path`). */
export const TreeQuery = Type.Object({ path: Type.Optional(Type.String({ maxLength: 1024 })) });

/** Which call a recording chunk belongs to: its chat and its `call` message. */
export const MeetAudioQuery = Type.Object({ chat_id: Id, message_id: Id });

const Uploaded = Type.Object({ file: FileInfo });

/** The JSON routes of files; the file URLs themselves (`/receive/…`, `/specific/…`) answer bytes. */
export const fileRoutes = {
  /** Multipart, the file in the field `file`. */
  upload: { method: 'POST', url: '/file/upload', status: 201, response: Uploaded },
  meetAudio: { method: 'POST', url: '/file/upload/meet-audio', querystring: MeetAudioQuery, status: 201, response: Uploaded },
  tokens: {
    method: 'POST',
    url: '/file/tokens',
    body: TokensBody,
    response: Type.Object({ tokens: Type.Record(Type.String(), Type.String()), expires_in: Type.Integer() }),
  },
  tree: { method: 'GET', url: '/file/tree', querystring: TreeQuery, response: FileTree },
  deleteAll: { method: 'DELETE', url: '/file/delete/all', response: Type.Object({ deleted_files: Type.Integer(), deleted_messages: Type.Integer() }) },
} as const;
