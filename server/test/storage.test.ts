import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { ConfigError, loadConfig } from '../src/config.js';
import { LocalDiskStorage, StoragePathError, type FileStorage } from '../src/modules/files/storage.js';
import { S3FileStorage } from '../src/modules/files/s3-storage.js';
import { isFilePath } from '../src/modules/files/paths.js';
import { startS3 } from './helpers/s3.js';

/** A stream that gives `bytes` in chunks and then, if asked, fails instead of ending (a dropped upload). */
function chunks(bytes: Buffer, options: { failAfter?: number } = {}): Readable {
  let offset = 0;
  return new Readable({
    read() {
      if (options.failAfter !== undefined && offset >= options.failAfter) return this.destroy(new Error('the upload was cut off'));
      if (offset >= bytes.length) return this.push(null);
      const chunk = bytes.subarray(offset, offset + 64 * 1024);
      offset += chunk.length;
      this.push(chunk);
    },
  });
}

// One contract, two backends: the local disk (the embedded default) and S3 (what a cluster's nodes share), here
// against a local S3-compatible server (s3rver) that the test starts.
const backends: Array<{
  name: string;
  /**
   * Whether folders more than one level above a file are checked. s3rver (3.7.1, the latest) answers a listing
   * with a delimiter only for keys one level below the prefix: it never descends further, so `recordings/` is not
   * reported for `recordings/5/9/<file>` — real S3 does report it, and S3FileStorage asks the way S3 documents.
   */
  nestedFolders: boolean;
  open(): Promise<{ storage: FileStorage; close(): Promise<void> }>;
}> = [
  {
    name: 'local disk',
    nestedFolders: true,
    async open() {
      const root = await mkdtemp(join(tmpdir(), 'msgr-storage-'));
      return { storage: new LocalDiskStorage(root), close: () => rm(root, { recursive: true, force: true }) };
    },
  },
  {
    name: 'S3',
    nestedFolders: false,
    async open() {
      const s3 = await startS3();
      const storage = new S3FileStorage(loadConfig({ ...s3.env, NODE_ENV: 'test' }).s3!);
      return {
        storage,
        async close() {
          storage.close();
          await s3.close();
        },
      };
    },
  },
];

for (const backend of backends) {
  describe(`file storage: ${backend.name}`, () => {
    let storage: FileStorage;
    let close: () => Promise<void>;
    before(async () => {
      ({ storage, close } = await backend.open());
    });
    after(() => close());

    it('stores a stream under a new path of ours, and gives back its bytes, a range of them and its size', async () => {
      const bytes = randomBytes(200_000);
      const stored = await storage.put(chunks(bytes), { extension: 'png' });
      assert.ok(isFilePath(stored.path), stored.path);
      assert.match(stored.path, /\.png$/);
      assert.equal(stored.size, bytes.length);
      assert.equal(await storage.size(stored.path), bytes.length);
      assert.deepEqual(await buffer(storage.open(stored.path)), bytes);
      assert.deepEqual(await buffer(storage.open(stored.path, { start: 1000, end: 1999 })), bytes.subarray(1000, 2000));

      await storage.remove(stored.path);
      assert.equal(await storage.size(stored.path), null);
      await storage.remove(stored.path); // removing twice is no error
      await assert.rejects(buffer(storage.open(stored.path)));
    });

    it('stores a file larger than one upload part (S3: a multipart upload)', async () => {
      const bytes = randomBytes(6 * 1024 * 1024 + 123);
      const stored = await storage.put(chunks(bytes), { extension: 'bin' });
      assert.equal(stored.size, bytes.length);
      assert.deepEqual(await buffer(storage.open(stored.path)), bytes);
      await storage.remove(stored.path);
    });

    it('keeps a call recording in its call\'s folder, and lists folders first, then files', async () => {
      const stored = await storage.put(chunks(randomBytes(1000)), { extension: 'webm', folder: 'recordings/5/9' });
      assert.match(stored.path, /^recordings\/5\/9\/[0-9a-f]{32}\.webm$/);
      if (backend.nestedFolders) {
        const root = await storage.list('');
        assert.ok(root?.some((entry) => entry.type === 'dir' && entry.name === 'recordings' && entry.path === 'recordings'));
        assert.deepEqual(await storage.list('recordings/5'), [{ name: '9', path: 'recordings/5/9', type: 'dir', size: 0 }]);
      }
      const inCall = await storage.list('recordings/5/9/');
      assert.deepEqual(inCall, [{ name: stored.path.split('/').at(-1), path: stored.path, type: 'file', size: 1000 }]);
      assert.equal(await storage.list('recordings/6'), null);
      await storage.remove(stored.path);
    });

    it('leaves nothing behind when the upload fails midway', async () => {
      const folder = 'recordings/7/1';
      await assert.rejects(storage.put(chunks(randomBytes(300_000), { failAfter: 128 * 1024 }), { extension: 'webm', folder }));
      const left = await storage.list(folder);
      assert.ok(left === null || left.length === 0, JSON.stringify(left));
    });

    it('refuses any path or folder that is not one of ours', async () => {
      for (const path of ['../secret', '2026/01/../../x', '/etc/passwd', '2026/01/NOTHEX.png', '']) {
        assert.throws(() => storage.open(path), StoragePathError);
        await assert.rejects(storage.size(path), StoragePathError);
        await assert.rejects(storage.remove(path), StoragePathError);
      }
      for (const folder of ['..', 'a/../b', '.hidden', 'a\\b']) await assert.rejects(storage.list(folder), StoragePathError);
    });
  });
}

describe('S3 settings', () => {
  it('are read only with a bucket, checked at start-up, and path-style for an S3-compatible endpoint', () => {
    const base = { NODE_ENV: 'test' };
    assert.equal(loadConfig(base).s3, undefined);
    assert.deepEqual(loadConfig({ ...base, S3_BUCKET: 'files', S3_ENDPOINT: 'http://10.0.0.9:9000', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' }).s3, {
      bucket: 'files',
      region: 'us-east-1',
      endpoint: 'http://10.0.0.9:9000',
      forcePathStyle: true,
      accessKeyId: 'k',
      secretAccessKey: 's',
    });
    assert.equal(loadConfig({ ...base, S3_BUCKET: 'files', S3_REGION: 'eu-central-1' }).s3?.forcePathStyle, false);
    assert.throws(() => loadConfig({ ...base, S3_ENDPOINT: 'http://10.0.0.9:9000' }), ConfigError);
    assert.throws(() => loadConfig({ ...base, S3_BUCKET: 'files', S3_ENDPOINT: 'minio:9000' }), ConfigError);
    assert.throws(() => loadConfig({ ...base, S3_BUCKET: 'files', S3_ACCESS_KEY_ID: 'k' }), ConfigError);
  });
});
