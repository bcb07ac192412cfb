import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { resolveUnder } from './paths.js';

export interface StoredFile {
  path: string;
  size: number;
}

/**
 * Where uploaded files live. Paths are made here (`<yyyy>/<mm>/<32 hex>[.ext]`), never taken from a client, and
 * every method refuses a path that is not one of ours. Another backend (S3…) implements the same four methods.
 */
export interface FileStorage {
  /** Stores a stream under a new path. On any failure (a broken or aborted stream) nothing is left behind. */
  put(source: Readable, options: { extension: string }): Promise<StoredFile>;
  /** The file's bytes, or a range of them (`end` inclusive). */
  open(path: string, range?: { start: number; end: number }): Readable;
  /** Size in bytes, or null when there is no such file. */
  size(path: string): Promise<number | null>;
  remove(path: string): Promise<void>;
}

export class StoragePathError extends Error {}

/** Files on the local disk under one root folder. */
export class LocalDiskStorage implements FileStorage {
  constructor(readonly root: string) {}

  async put(source: Readable, options: { extension: string }): Promise<StoredFile> {
    const now = new Date();
    const name = randomBytes(16).toString('hex') + (options.extension ? `.${options.extension}` : '');
    const path = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}/${name}`;
    const full = this.locate(path);
    await mkdir(dirname(full), { recursive: true });
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    try {
      // 'wx': never overwrite; 0o600: the files are the server's, not the machine's other users'.
      await pipeline(source, counter, createWriteStream(full, { flags: 'wx', mode: 0o600 }));
    } catch (error) {
      await rm(full, { force: true });
      throw error;
    }
    return { path, size };
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

  private locate(path: string): string {
    const full = resolveUnder(this.root, path);
    if (!full) throw new StoragePathError(`not a stored file path: ${JSON.stringify(path).slice(0, 80)}`);
    return full;
  }
}
