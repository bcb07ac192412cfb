import { createReadStream, createWriteStream } from 'node:fs';
import { lstat, mkdir, readdir, realpath, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, sep } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { normaliseFolder, resolveFolderUnder, resolveUnder } from './paths.js';

export interface StoredFile {
  path: string;
  size: number;
}

/** One entry of a storage folder (`GET /file/tree`). */
export interface StorageEntry {
  name: string;
  /** Relative to the storage root, as `path` of the files table for files. */
  path: string;
  type: 'dir' | 'file';
  /** Bytes for a file; 0 for a folder. */
  size: number;
}

/**
 * Where uploaded files live. Paths are made here (`<yyyy>/<mm>/<32 hex>[.ext]`), never taken from a client, and
 * every method refuses a path that is not one of ours. Local disk (the embedded default) and S3 (s3-storage.ts,
 * what a cluster's nodes share) implement them.
 */
export interface FileStorage {
  /**
   * Stores a stream under a new path (in `folder`, a server-made folder such as `recordings/<chat>/<message>`, else
   * by date). On any failure (a broken or aborted stream) nothing is left behind.
   */
  put(source: Readable, options: { extension: string; folder?: string }): Promise<StoredFile>;
  /** The file's bytes, or a range of them (`end` inclusive). */
  open(path: string, range?: { start: number; end: number }): Readable;
  /** Size in bytes, or null when there is no such file. */
  size(path: string): Promise<number | null>;
  remove(path: string): Promise<void>;
  /**
   * The entries of a folder ('' is the root), folders first then by name, or null when there is no such folder.
   * Throws StoragePathError for a path that is malformed or would leave the root.
   */
  list(folder: string): Promise<StorageEntry[] | null>;
  /** Lets go of connections (S3's); nothing to do for the disk. */
  close?(): void;
}

/** A new stored path: `folder` when the server chose one (a call's recordings), else by date; a random name. */
export function newFilePath(options: { extension: string; folder?: string }): string {
  const now = new Date();
  const name = randomBytes(16).toString('hex') + (options.extension ? `.${options.extension}` : '');
  const folder = options.folder ?? `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
  return `${folder}/${name}`;
}

/** Passes bytes through and counts them: the stored size, whatever the upload claimed. */
export function byteCounter(): Transform & { bytes: number } {
  const counter = Object.assign(
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        counter.bytes += chunk.length;
        done(null, chunk);
      },
    }),
    { bytes: 0 },
  );
  return counter;
}

/** Folders first, then by name: how every storage lists a folder. */
export function sortEntries(entries: StorageEntry[]): StorageEntry[] {
  return entries.sort((a, b) => (a.type === b.type ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.type === 'dir' ? -1 : 1));
}

export class StoragePathError extends Error {}

/** Files on the local disk under one root folder. */
export class LocalDiskStorage implements FileStorage {
  constructor(readonly root: string) {}

  async put(source: Readable, options: { extension: string; folder?: string }): Promise<StoredFile> {
    const path = newFilePath(options);
    const full = this.locate(path);
    await mkdir(dirname(full), { recursive: true });
    const counter = byteCounter();
    try {
      // 'wx': never overwrite; 0o600: the files are the server's, not the machine's other users'.
      await pipeline(source, counter, createWriteStream(full, { flags: 'wx', mode: 0o600 }));
    } catch (error) {
      await rm(full, { force: true });
      throw error;
    }
    return { path, size: counter.bytes };
  }

  open(path: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.locate(path), range ? { start: range.start, end: range.end } : {});
  }

  async size(path: string): Promise<number | null> {
    try {
      const info = await stat(this.locate(path));
      return info.isFile() ? info.size : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async remove(path: string): Promise<void> {
    await rm(this.locate(path), { force: true });
  }

  async list(folder: string): Promise<StorageEntry[] | null> {
    const relativeFolder = normaliseFolder(folder);
    const full = resolveFolderUnder(this.root, folder);
    if (full === null || relativeFolder === null) throw new StoragePathError(`not a storage folder: ${JSON.stringify(folder).slice(0, 80)}`);
    let real: string;
    let realRoot: string;
    try {
      [real, realRoot] = await Promise.all([realpath(full), realpath(this.root)]);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    // A link inside the root must not lead outside it.
    if (real !== realRoot && !real.startsWith(realRoot + sep)) throw new StoragePathError('folder outside the storage root');
    if (!(await stat(real)).isDirectory()) return null;
    const entries: StorageEntry[] = [];
    for (const entry of await readdir(real, { withFileTypes: true })) {
      // Only plain files and folders with names of our form; links and anything else are not listed.
      if (!entry.isFile() && !entry.isDirectory()) continue;
      const path = relativeFolder ? `${relativeFolder}/${entry.name}` : entry.name;
      if (normaliseFolder(path) !== path) continue;
      const size = entry.isFile() ? (await lstat(`${real}${sep}${entry.name}`).catch(() => null))?.size ?? 0 : 0;
      entries.push({ name: entry.name, path, type: entry.isDirectory() ? 'dir' : 'file', size });
    }
    return sortEntries(entries);
  }

  private locate(path: string): string {
    const full = resolveUnder(this.root, path);
    if (!full) throw new StoragePathError(`not a stored file path: ${JSON.stringify(path).slice(0, 80)}`);
    return full;
  }
}
