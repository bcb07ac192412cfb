import type { Queryable } from '../../db/index.js';
import { badRequest } from '../../http/errors.js';
import { INLINE_IMAGE_TYPES } from './mime.js';

export interface FileRow extends Record<string, unknown> {
  path: string;
  owner_id: number;
  original_name: string;
  mime: string;
  size: number;
}

/**
 * Which of `paths` `viewerId` may see, with their rows: files they uploaded, files of live messages in chats they
 * are in, anyone's avatar, and the avatars of chats they are in (admins: of every secret group too). The viewer's
 * role comes from the database. A deleted or blocked viewer sees nothing; deleted files are never seen.
 */
export async function visibleFiles(db: Queryable, viewerId: number, paths: string[]): Promise<FileRow[]> {
  if (paths.length === 0) return [];
  return db.query<FileRow>(
    `SELECT f.path, f.owner_id, f.original_name, f.mime, f.size
       FROM files f, users v
      WHERE v.id = $1 AND NOT v.deleted AND NOT v.blocked
        AND f.path = ANY($2::text[]) AND f.deleted_at IS NULL
        AND (f.owner_id = v.id
          OR EXISTS (SELECT 1 FROM messages x JOIN chat_members cm ON cm.chat_id = x.chat_id AND cm.user_id = v.id
                      WHERE x.file_path = f.path AND x.deleted_at IS NULL AND (x.expires_at IS NULL OR x.expires_at > now()))
          OR EXISTS (SELECT 1 FROM users a WHERE a.avatar = f.path AND NOT a.deleted)
          OR EXISTS (SELECT 1 FROM chats c
                      WHERE c.avatar = f.path
                        AND (EXISTS (SELECT 1 FROM chat_members cm WHERE cm.chat_id = c.id AND cm.user_id = v.id)
                             OR (v.role >= 2 AND c.is_secret))))`,
    [viewerId, paths],
  );
}

/** A live file this person uploaded, or undefined. */
export async function ownFile(db: Queryable, ownerId: number, path: string): Promise<FileRow | undefined> {
  const rows = await db.query<FileRow>(
    `SELECT path, owner_id, original_name, mime, size FROM files WHERE path = $1 AND owner_id = $2 AND deleted_at IS NULL`,
    [path, ownerId],
  );
  return rows[0];
}

/** Avatars (a person's, a group's) must be a png/jpeg/gif/webp image the caller uploaded. */
export async function requireOwnImage(db: Queryable, ownerId: number, path: string): Promise<void> {
  const file = await ownFile(db, ownerId, path);
  if (!file || !INLINE_IMAGE_TYPES.has(file.mime)) {
    throw badRequest('The avatar must be an image (png, jpeg, gif or webp) you uploaded', 'invalid_avatar');
  }
}
