import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPostgresDatabase, testDatabase } from './server.js';
import { WAIT_MS, waitFor } from './client.js';

const serverDir = fileURLToPath(new URL('../..', import.meta.url));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export { listening } from '../../../scripts/listening.mjs';

/**
 * The real server as its own process (`src/main.ts`) over a database that outlives it — a folder for PGlite, a
 * database of its own on PostgreSQL — so a test can kill it with SIGKILL and start it again on the same data.
 */
export interface ServerProcess {
  /** The same shape `startServer` gives, so the HTTP and socket helpers work with it. */
  url: string;
  wsUrl: string;
  start(): Promise<void>;
  kill(): Promise<void>;
  close(): Promise<void>;
}

export async function serverProcess(
  env: Record<string, string> = {},
  options: {
    /** A PostgreSQL database shared with other processes (a cluster's nodes); the caller creates and drops it. */
    sharedDatabaseUrl?: string;
  } = {},
): Promise<ServerProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), 'msgr-proc-'));
  const { databaseUrl, dropDatabase } = options.sharedDatabaseUrl
    ? { databaseUrl: options.sharedDatabaseUrl, dropDatabase: undefined }
    : testDatabase === 'postgres'
      ? await createPostgresDatabase('msgr_proc')
      : { databaseUrl: undefined, dropDatabase: undefined };
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  const handle: ServerProcess = {
    url,
    wsUrl: url.replace('http', 'ws'),
    async start() {
      child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: serverDir,
        env: {
          ...process.env,
          NODE_ENV: 'test',
          HOST: '127.0.0.1',
          PORT: String(port),
          DATA_DIR: dataDir,
          LOG_LEVEL: 'warn',
          OTP_PER_IP_PER_HOUR: '100000',
          CLIENT_ROOT: '/nonexistent',
          DATABASE_URL: databaseUrl ?? '',
          ...env,
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      // From source through tsx (some 700 modules compiled at start), a start took more than 30 s beside a build
      // on a slow day; a start that succeeds returns as soon as the server answers.
      await waitFor(
        async () => {
          if (child?.exitCode !== null) throw new Error(`the server exited with ${child?.exitCode}`);
          return fetch(`${url}/api/health`).then((response) => response.ok, () => false);
        },
        'the server to start',
        3 * WAIT_MS,
      );
    },
    async kill() {
      const running = child;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGKILL');
      await exited;
    },
    async close() {
      await handle.kill();
      await dropDatabase?.();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  await handle.start();
  return handle;
}
