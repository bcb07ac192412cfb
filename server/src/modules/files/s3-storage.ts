import { PassThrough, type Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Config } from '../../config.js';
import { isFilePath, normaliseFolder } from './paths.js';
import { StoragePathError, byteCounter, newFilePath, sortEntries, type FileStorage, type StorageEntry, type StoredFile } from './storage.js';

/**
 * Files in an S3 bucket (AWS, or any S3-compatible store through S3_ENDPOINT): what several nodes share, so an
 * upload through one node downloads through any other. Keys are the stored paths themselves; every method
 * refuses a path that is not one of ours, as the disk does.
 */
export class S3FileStorage implements FileStorage {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(config: S3Config) {
    this.bucket = config.bucket;
    this.client = new S3Client({
      region: config.region,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      forcePathStyle: config.forcePathStyle,
      ...(config.accessKeyId && config.secretAccessKey
        ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } }
        : {}), // otherwise the SDK's own chain: environment, instance role…
      // Checksums only where S3 requires them: S3-compatible stores do not all read the newer trailing-checksum
      // (aws-chunked) uploads, and our downloads are checked by their size.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(source: Readable, options: { extension: string; folder?: string }): Promise<StoredFile> {
    const path = newFilePath(options);
    this.check(path);
    const counter = byteCounter();
    source.on('error', (error) => counter.destroy(error));
    // A stream of unknown length: one PUT when it is small, a multipart upload when not. A failed or aborted
    // stream aborts the upload, so nothing is left behind (a multipart upload is aborted, not completed).
    const upload = new Upload({ client: this.client, params: { Bucket: this.bucket, Key: path, Body: source.pipe(counter) }, leavePartsOnError: false });
    try {
      await upload.done();
    } catch (error) {
      // The store refused or went away: the rest of the upload is not read (as with the disk's pipeline).
      source.destroy();
      throw error;
    }
    return { path, size: counter.bytes };
  }

  open(path: string, range?: { start: number; end: number }): Readable {
    this.check(path);
    const body = new PassThrough();
    this.client
      .send(new GetObjectCommand({ Bucket: this.bucket, Key: path, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }))
      .then(
        (response) => {
          const source = response.Body as Readable | undefined;
          if (!source) return body.end();
          source.on('error', (error) => body.destroy(error));
          body.on('close', () => source.destroy());
          source.pipe(body);
        },
        (error: unknown) => body.destroy(error as Error),
      );
    return body;
  }

  async size(path: string): Promise<number | null> {
    this.check(path);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: path }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (notFound(error)) return null;
      throw error;
    }
  }

  async remove(path: string): Promise<void> {
    this.check(path);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: path }));
  }

  async list(folder: string): Promise<StorageEntry[] | null> {
    const relativeFolder = normaliseFolder(folder);
    if (relativeFolder === null) throw new StoragePathError(`not a storage folder: ${JSON.stringify(folder).slice(0, 80)}`);
    const prefix = relativeFolder ? `${relativeFolder}/` : '';
    const entries: StorageEntry[] = [];
    let token: string | undefined;
    do {
      // A bucket has no folders: "/" as the delimiter turns the keys under the prefix into this level's
      // files and the folders below it.
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, Delimiter: '/', ContinuationToken: token }));
      for (const common of page.CommonPrefixes ?? []) {
        const path = common.Prefix!.slice(0, -1);
        if (normaliseFolder(path) === path) entries.push({ name: path.slice(prefix.length), path, type: 'dir', size: 0 });
      }
      for (const object of page.Contents ?? []) {
        const path = object.Key!;
        if (normaliseFolder(path) === path) entries.push({ name: path.slice(prefix.length), path, type: 'file', size: object.Size ?? 0 });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    // The root always exists; a folder exists while something is in it.
    if (entries.length === 0 && relativeFolder !== '') return null;
    return sortEntries(entries);
  }

  close(): void {
    this.client.destroy();
  }

  private check(path: string): void {
    if (!isFilePath(path)) throw new StoragePathError(`not a stored file path: ${JSON.stringify(path).slice(0, 80)}`);
  }
}

function notFound(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.$metadata.httpStatusCode === 404 || error.name === 'NotFound' || error.name === 'NoSuchKey');
}
