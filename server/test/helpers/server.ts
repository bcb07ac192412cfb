import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig, type Config } from '../../src/config.js';
import { openDatabase, type Db } from '../../src/db/index.js';
import { createPglite, pgliteDb } from '../../src/db/pglite.js';
import { migrate } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { buildApp } from '../../src/app.js';
import type { App } from '../../src/http/types.js';

export interface TestServer {
  url: string;
  wsUrl: string;
  app: App;
  db: Db;
  config: Config;
  /**
   * Stops the app (not the database), runs `whileDown`, then starts a new app over the same database and
   * files, on a new port: what happens at start-up can be tested.
   */
  restart(whileDown?: () => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

/** Which database this run uses: `TEST_DATABASE=postgres` (with TEST_POSTGRES_URL) or embedded PGlite. */
export const testDatabase = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite';
const postgresAdminUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A test server's settings: quiet, no client files, sign-in codes unlimited, files in `filesDir`; `env` on top. */
function testConfig(filesDir: string, env: Record<string, string>): Config {
  return loadConfig({
    NODE_ENV: 'test',
    FILES_DIR: filesDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    OTP_PER_IP_PER_HOUR: '100000',
    CLIENT_ROOT: '/nonexistent',
    // Staff sign in hundreds of times across the suite: password hashes at 1/32 of the production work (0.2 s
    // of CPU each). The manager sign-in tests keep the production cost, and check it is what is stored.
    PASSWORD_HASH_COST: '10',
    ...env,
  });
}

/**
 * Builds and listens an app over an open database, on a random port: the `TestServer` both the single server and
 * each cluster node are. `cleanUp` runs when it closes, after the app.
 */
async function serveNode(config: Config, db: Db, cleanUp: () => Promise<void>): Promise<TestServer> {
  const listen = async () => {
    const app = await buildApp(config, db);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    const url = `http://127.0.0.1:${address.port}`;
    return { app, url, wsUrl: url.replace('http', 'ws') };
  };
  const server: TestServer = {
    ...(await listen()),
    db,
    config,
    async restart(whileDown) {
      await server.app.close();
      await whileDown?.();
      Object.assign(server, await listen());
    },
    async close() {
      await server.app.close();
      await cleanUp();
    },
  };
  return server;
}

/** A PostgreSQL database of this test's own, and how to drop it. */
export async function createPostgresDatabase(prefix = 'msgr_test'): Promise<{ databaseUrl: string; dropDatabase: () => Promise<void> }> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    dropDatabase: async () => {
      const client = new pg.Client({ connectionString: postgresAdminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * A migrated empty PGlite database, saved once for every test process (in the system's temp folder, named by the
 * migrations and PGlite's version): a server started from it skips initdb and the migrations (a test server's
 * start 2.3 → 0.7 s). Each server still runs `migrate`, which finds nothing to do. Saving is only a saving: a
 * folder that cannot be written, or a saved copy that does not load, costs the time, never a test.
 */
let pgliteTemplate: Promise<Blob> | undefined;
const TEMPLATE_PREFIX = 'msgr-test-pglite-';

function templateFile(): string {
  const pgliteVersion = JSON.parse(readFileSync(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url), 'utf8')).version;
  const key = createHash('sha256').update(JSON.stringify(migrations)).update(pgliteVersion).digest('hex').slice(0, 16);
  return join(tmpdir(), `${TEMPLATE_PREFIX}${key}.tar`);
}

function migratedPgliteTemplate(): Promise<Blob> {
  pgliteTemplate ??= (async () => {
    const file = templateFile();
    try {
      return new Blob([await readFile(file)]);
    } catch {
      // Not saved yet: make it, and save it whole under its name (processes racing here each write their own copy).
      const pg = await createPglite(undefined);
      await migrate(pgliteDb(pg));
      const dump = await pg.dumpDataDir('none');
      await pg.close();
      const partial = `${file}.${process.pid}`;
      try {
        await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
        await rename(partial, file);
        // Copies for earlier migrations are of no more use.
        for (const name of await readdir(tmpdir())) {
          if (name.startsWith(TEMPLATE_PREFIX) && join(tmpdir(), name) !== file && !name.includes('.tar.')) await rm(join(tmpdir(), name), { force: true });
        }
      } catch {
        await rm(partial, { force: true }).catch(() => undefined);
      }
      return dump;
    }
  })();
  return pgliteTemplate;
}

/** A fresh, migrated PGlite database in memory, started from the saved copy when it loads. */
export async function openMemoryPglite(): Promise<Db> {
  const template = await migratedPgliteTemplate();
  return openDatabase({ pgliteTemplate: template }).catch(async () => {
    await forgetPgliteTemplate();
    return openDatabase({});
  });
}

/** A saved copy that did not load (cut short, damaged): removed, and made again by the next server. */
async function forgetPgliteTemplate(): Promise<void> {
  pgliteTemplate = undefined;
  await rm(templateFile(), { force: true });
}

/**
 * A real server on a random port over a fresh database: in-memory PGlite, or a PostgreSQL database created for
 * this server alone and dropped when it closes, so runs never collide.
 */
export async function startServer(
  env: Record<string, string> = {},
  options: {
    /** PGlite in a folder of its own (removed on close) instead of in memory, e.g. to measure disk syncs. */
    onDisk?: boolean;
    /** With `onDisk`: whether commits are synced to disk (the product always does; benchmarks compare). */
    durable?: boolean;
  } = {},
): Promise<TestServer> {
  const { databaseUrl, dropDatabase } = testDatabase === 'postgres' ? await createPostgresDatabase() : { databaseUrl: undefined, dropDatabase: undefined };
  // Uploaded files go to a folder of this server's own, removed when it closes.
  const filesDir = await mkdtemp(join(tmpdir(), 'msgr-files-'));
  const config = testConfig(filesDir, { ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), ...env });
  // In-memory PGlite unless asked otherwise: nothing to clean up, nothing shared between servers.
  const dataDir = options.onDisk && !databaseUrl ? await mkdtemp(join(tmpdir(), 'msgr-data-')) : undefined;
  const db = databaseUrl || dataDir ? await openDatabase({ databaseUrl, dataDir, durable: options.durable }) : await openMemoryPglite();
  return serveNode(config, db, async () => {
    await db.close();
    await dropDatabase?.();
    await rm(filesDir, { recursive: true, force: true });
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
}

export const testNatsUrl = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
export const testRedisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * A cluster of real nodes in this process: one fresh PostgreSQL database, each node its own app, database pool
 * and NATS connection, linked through the NATS at TEST_NATS_URL under a cluster name of this test's own (so
 * concurrent runs sharing that NATS — or a Redis, with `REDIS_URL` in `env` — never hear each other).
 * PostgreSQL only: PGlite belongs to one process.
 */
export async function startCluster(size: number, env: Record<string, string> = {}): Promise<{ nodes: TestServer[]; clusterName: string; close(): Promise<void> }> {
  const { databaseUrl, dropDatabase } = await createPostgresDatabase();
  const clusterName = `test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const nodes: TestServer[] = [];
  const filesDir = await mkdtemp(join(tmpdir(), 'msgr-files-'));
  try {
    for (let index = 0; index < size; index += 1) {
      const config = testConfig(filesDir, {
        DATABASE_URL: databaseUrl,
        NATS_URL: testNatsUrl,
        CLUSTER_NAME: clusterName,
        NODE_ID: `node-${index + 1}`,
        ...env,
      });
      const db = await openDatabase({ databaseUrl });
      const node = await serveNode(config, db, () => db.close());
      nodes.push(node);
    }
  } catch (error) {
    for (const node of nodes) await node.close().catch(() => undefined);
    await dropDatabase();
    throw error;
  }
  return {
    nodes,
    clusterName,
    async close() {
      for (const node of nodes) await node.close();
      await dropDatabase();
      await rm(filesDir, { recursive: true, force: true });
    },
  };
}
