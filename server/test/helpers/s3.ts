import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { freePort } from './process.js';

/**
 * A local S3-compatible server (s3rver, from npm) for this test alone: its own port, folder and bucket. Returns
 * the server settings that point a node's uploads at it.
 */
export async function startS3(): Promise<{ env: Record<string, string>; close(): Promise<void> }> {
  const directory = await mkdtemp(join(tmpdir(), 'msgr-s3-'));
  const port = await freePort();
  const bucket = 'msgr-files';
  const server = new S3rver({ port, address: '127.0.0.1', directory, silent: true, configureBuckets: [{ name: bucket, configs: [] }] });
  await server.run();
  return {
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      // s3rver's fixed credentials (it checks the signature with them).
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
