import { Readable } from 'node:stream';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyBaseLogger } from 'fastify';
import type { Services } from '../../services.js';
import type { Queryable } from '../../db/index.js';
import { HttpError, badRequest, notFound, unauthorized } from '../../http/errors.js';
import { lockChat } from '../chats/repository.js';
import { deleteMessages } from '../messages/deletion.js';
import { Role, loadAdmin } from '../users/actor.js';
import { MEDIA_TOKEN_TTL_SECONDS, type MediaScope } from '../../security/media-tokens.js';
import { type FileRow, visibleFiles } from './access.js';
import { cleanFileName, contentDisposition, extensionFor, isInlineType, storedFilePolicy, storedMime } from './mime.js';
import { isFilePath, normaliseFolder } from './paths.js';
import { StoragePathError } from './storage.js';
import { FILE_TREE_LIMIT, limits, type FileInfo, type FileTree } from '@messenger/protocol';

const MB = 1024 * 1024;
/** Upload limits of spec §5: 10 MB, 50 MB for role 1 (manager) and above. */
export function uploadLimitMb(role: number): number {
  return role >= Role.manager ? limits.uploadLimitStaffMb : limits.uploadLimitMb;
}

export function fileTooLarge(limitMb: number): HttpError {
  // The connection is closed after the answer: the rest of an oversized body is not worth reading.
  return new HttpError(413, 'file_too_large', `Upload failed. Maximum size - ${limitMb} MB.`, { connection: 'close' });
}

/** A stored file as its uploader gets it back: the contract's (packages/protocol). */
export type { FileInfo } from '@messenger/protocol';

class TooLarge extends Error {}

/** How many bytes of a file decide its type (the longest signature we check is 12 bytes). */
const HEAD_BYTES = 16;

/** Most entries `GET /file/tree` lists of one folder (folders first, then by name); `truncated` says when more. */
const TREE_LIMIT = FILE_TREE_LIMIT;

export interface ServedFile {
  status: 200 | 206 | 416;
  headers: Record<string, string>;
  body: Readable | null;
}

export class FilesService {
  constructor(
    private readonly services: Services,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Streams one uploaded file to storage. The size limit is enforced while it streams: past `limitMb` the upload
   * is cut off, whatever was written is removed, and 413 is answered without reading the rest.
   */
  async upload(ownerId: number, part: MultipartFile, limitMb: number, folder?: string): Promise<FileInfo> {
    let overLimit = false;
    part.file.once('limit', () => {
      overLimit = true;
      part.file.destroy(new TooLarge());
    });
    const name = cleanFileName(part.filename);
    let stored;
    try {
      const { head, stream } = await peek(part.file, HEAD_BYTES);
      const mime = storedMime(part.mimetype, head);
      stored = { mime, ...(await this.services.storage.put(stream, { extension: extensionFor(mime), ...(folder ? { folder } : {}) })) };
    } catch (error) {
      if (overLimit || error instanceof TooLarge) throw fileTooLarge(limitMb);
      throw error;
    }
    if (overLimit || part.file.truncated || stored.size > limitMb * MB) {
      await this.services.storage.remove(stored.path);
      throw fileTooLarge(limitMb);
    }
    try {
      await this.services.db.query('INSERT INTO files (owner_id, path, original_name, mime, size) VALUES ($1, $2, $3, $4, $5)', [
        ownerId,
        stored.path,
        name,
        stored.mime,
        stored.size,
      ]);
    } catch (error) {
      await this.services.storage.remove(stored.path);
      throw error;
    }
    return { path: stored.path, name, size: stored.size, mime: stored.mime };
  }

  /** Removes a file just uploaded that turned out not to be wanted. */
  async discard(path: string): Promise<void> {
    await this.services.db.query('DELETE FROM files WHERE path = $1', [path]);
    await this.services.storage.remove(path);
  }

  /**
   * A media token for each path the caller may see; the others are left out. `admin` (role ≥ 2): admin tokens
   * for any stored file, for the admin file URLs.
   */
  async tokens(userId: number, paths: string[], admin = false): Promise<{ tokens: Record<string, string>; expires_in: number }> {
    const wanted = [...new Set(paths)].filter(isFilePath);
    if (admin) await loadAdmin(this.services.db, userId);
    const granted = admin
      ? await this.services.db.query<{ path: string }>('SELECT path FROM files WHERE path = ANY($1::text[]) AND deleted_at IS NULL', [wanted])
      : await visibleFiles(this.services.db, userId, wanted);
    const tokens: Record<string, string> = {};
    for (const file of granted) tokens[file.path] = await this.services.mediaTokens.issue(userId, file.path, undefined, admin ? 'admin' : 'user');
    return { tokens, expires_in: MEDIA_TOKEN_TTL_SECONDS };
  }

  /**
   * `GET /file/tree?path=` (role ≥ 2): one folder of the storage, '' being the root. Files carry their original
   * name, type and uploader from the files table when it knows them. Anything outside the root is 400.
   */
  async tree(userId: number, folder: string): Promise<FileTree> {
    await loadAdmin(this.services.db, userId);
    const normalised = normaliseFolder(folder);
    if (normalised === null) throw badRequest('Not a folder of the file storage', 'invalid_path');
    let entries;
    try {
      entries = await this.services.storage.list(normalised);
    } catch (error) {
      if (error instanceof StoragePathError) throw badRequest('Not a folder of the file storage', 'invalid_path');
      throw error;
    }
    if (entries === null) throw notFound('No such folder', 'folder_not_found');
    const shown = entries.slice(0, TREE_LIMIT);
    const files = shown.filter((entry) => entry.type === 'file').map((entry) => entry.path);
    const known = new Map(
      (
        await this.services.db.query<{ path: string; mime: string; owner_id: number; original_name: string }>(
          'SELECT path, mime, owner_id, original_name FROM files WHERE path = ANY($1::text[])',
          [files],
        )
      ).map((row) => [row.path, row]),
    );
    return {
      path: normalised,
      entries: shown.map((entry) => {
        const row = known.get(entry.path);
        return { ...entry, ...(row ? { mime: row.mime, owner_id: row.owner_id, original_name: row.original_name } : {}) };
      }),
      truncated: entries.length > shown.length,
    };
  }

  /**
   * A file for `/receive` (`disposition: 'auto'`: inline only for safe media) or `/specific/file` (always an
   * attachment). The path is checked against our pattern before anything else; the token must be a media token
   * for exactly this path whose user may (still) see the file. `scope: 'admin'` (`/receive/admin/…`,
   * `/specific/admin/file`): an admin media token, whose user must still be an admin.
   */
  async serve(
    path: string,
    token: string,
    disposition: 'auto' | 'attachment',
    rangeHeader: string | undefined,
    scope: MediaScope = 'user',
  ): Promise<ServedFile> {
    if (!isFilePath(path)) throw notFound('No such file', 'file_not_found');
    const claims = await this.services.mediaTokens.verify(token, scope);
    if (!claims || claims.path !== path) throw invalidMediaToken();
    const [exists] = await this.services.db.query<FileRow>(
      'SELECT path, owner_id, original_name, mime, size FROM files WHERE path = $1 AND deleted_at IS NULL',
      [path],
    );
    if (!exists) throw notFound('No such file', 'file_not_found');
    // Admin URLs: the token's holder must be an admin now (role, block, deletion and passwords as they are now).
    const file =
      scope === 'admin'
        ? (await isAdminNow(this.services.db, claims.userId))
          ? exists
          : undefined
        : (await visibleFiles(this.services.db, claims.userId, [path]))[0];
    if (!file) throw invalidMediaToken();
    const size = await this.services.storage.size(path);
    if (size === null) throw notFound('No such file', 'file_not_found');

    const inline = disposition === 'auto' && isInlineType(file.mime);
    const headers: Record<string, string> = {
      // An attachment is sent as bytes, never as its declared type: a file uploaded as text/javascript or text/css
      // from this origin would otherwise pass the app's own `script-src 'self'` as a script (nosniff checks only
      // the type), were markup ever injected into the app. The name in Content-Disposition keeps its extension.
      'content-type': inline ? file.mime : 'application/octet-stream',
      'content-disposition': contentDisposition(inline ? 'inline' : 'attachment', file.original_name),
      'x-content-type-options': 'nosniff',
      'content-security-policy': storedFilePolicy(file.mime, inline),
      'accept-ranges': 'bytes',
      // The URL carries a personal token: caches other than the browser's own must not keep it.
      'cache-control': 'private, max-age=3600',
    };
    const range = parseRange(rangeHeader, size);
    if (range === 'unsatisfiable') {
      return { status: 416, headers: { ...headers, 'content-range': `bytes */${size}` }, body: null };
    }
    if (range) {
      headers['content-range'] = `bytes ${range.start}-${range.end}/${size}`;
      headers['content-length'] = String(range.end - range.start + 1);
      return { status: 206, headers, body: this.services.storage.open(path, range) };
    }
    headers['content-length'] = String(size);
    return { status: 200, headers, body: size === 0 ? Readable.from([]) : this.services.storage.open(path) };
  }

  /**
   * Removes every file the caller uploaded — except their current avatar and any group's current avatar — and
   * deletes the messages carrying them (with `message-deleted`). First the files are marked deleted (no new
   * message can take them from then on), then their messages are deleted chat by chat, then the bytes go.
   */
  async deleteAll(userId: number): Promise<{ deleted_files: number; deleted_messages: number }> {
    const { db, events, storage } = this.services;
    const marked = await db.query<{ path: string }>(
      `UPDATE files f SET deleted_at = now()
        WHERE f.owner_id = $1 AND f.deleted_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = $1 AND u.avatar = f.path)
          AND NOT EXISTS (SELECT 1 FROM chats c WHERE c.avatar = f.path)
        RETURNING f.path`,
      [userId],
    );
    let deletedMessages = 0;
    // Messages of this person's deleted files (also leftovers of an earlier run that stopped half-way). A send
    // that took one of the files just before it was marked may commit a moment later: hence the loop.
    for (let round = 0; round < 5; round += 1) {
      const carrying = await db.query<{ id: number; chat_id: number }>(
        `SELECT m.id, m.chat_id FROM messages m JOIN files f ON f.path = m.file_path
          WHERE f.owner_id = $1 AND f.deleted_at IS NOT NULL AND m.deleted_at IS NULL`,
        [userId],
      );
      if (carrying.length === 0) break;
      const byChat = new Map<number, number[]>();
      for (const row of carrying) byChat.set(row.chat_id, [...(byChat.get(row.chat_id) ?? []), row.id]);
      const chatIds = [...byChat.keys()].sort((a, b) => a - b);
      deletedMessages += await db.transaction(async (tx) => {
        // Every chat first (in id order), then every recipient: the lock order all writers follow.
        for (const chatId of chatIds) await lockChat(tx, chatId);
        const recipients = await tx.query<{ user_id: number }>('SELECT user_id FROM chat_members WHERE chat_id = ANY($1::bigint[])', [chatIds]);
        await events.lockRecipients(tx, recipients.map((row) => row.user_id));
        let count = 0;
        for (const chatId of chatIds) count += (await deleteMessages(tx, events, chatId, byChat.get(chatId)!)).length;
        return count;
      });
    }
    for (const { path } of marked) {
      // Marked deleted already, so never served again; the bytes are left behind only if the disk refuses.
      await storage.remove(path).catch((error: unknown) => this.log.error({ err: error, path }, 'could not remove a file from storage'));
    }
    return { deleted_files: marked.length, deleted_messages: deletedMessages };
  }
}

const invalidMediaToken = () => unauthorized('Invalid or expired media token', 'invalid_media_token');

/** Whether a user may use admin file URLs now: an admin (role ≥ 2), not blocked or deleted, passwords set. */
async function isAdminNow(db: Queryable, userId: number): Promise<boolean> {
  try {
    await loadAdmin(db, userId);
    return true;
  } catch (error) {
    if (error instanceof HttpError) return false;
    throw error;
  }
}

export function toFileInfo(row: FileRow): FileInfo {
  return { path: row.path, name: row.original_name, size: Number(row.size), mime: row.mime };
}

/** Reads the first `bytes` of a stream and gives back a stream of the whole, the first bytes included. */
async function peek(source: Readable, bytes: number): Promise<{ head: Buffer; stream: Readable }> {
  const iterator = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first: Buffer[] = [];
  let length = 0;
  let done = false;
  while (length < bytes) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    first.push(next.value);
    length += next.value.length;
  }
  async function* whole(): AsyncGenerator<Buffer> {
    yield* first;
    if (done) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { head: Buffer.concat(first).subarray(0, bytes), stream: Readable.from(whole(), { objectMode: false }) };
}

/**
 * One `bytes=` range of a file of `size` bytes: null to send the whole file (no header, several ranges, or one
 * we do not understand), 'unsatisfiable' for a range past the end.
 */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
    if (match[2] !== '' && Number(match[2]) < start) return null;
  }
  if (start >= size || size === 0) return 'unsatisfiable';
  return { start, end };
}
