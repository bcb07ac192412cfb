// `npm run cluster`: the product as a cluster on this machine — 3 server nodes over one PostgreSQL, linked by NATS,
// their limits in Redis, behind HAProxy (WebSockets included, health-checked on /api/health). docs/deployment.md
// explains the same topology on several machines. Ctrl-C stops everything it started.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildStale, ensureDependencies, log, root } from './lib.mjs';
import { clusterServices, notListening } from './listening.mjs';
import { ensureTool } from './debian-tools.mjs';
import { haproxyConfig } from './haproxy-config.mjs';

const NODES = Number(process.env.CLUSTER_NODES ?? 3);
const port = Number(process.env.PORT ?? 8080);
const firstNodePort = Number(process.env.CLUSTER_NODE_PORT ?? port + 1);
const services = clusterServices();
const [[, natsUrl], [, redisUrl], [, databaseUrl]] = services;
const clusterName = process.env.CLUSTER_NAME ?? 'msgr-local';
const dataDir = process.env.DATA_DIR ?? join(root, 'data', 'cluster');
// CLUSTER_DROP_DATABASE=1: the database is the run's own (the e2e cluster run), dropped once the nodes have stopped.
const dropDatabaseOnStop = process.env.CLUSTER_DROP_DATABASE === '1';

/** A service URL fit to print: any user name and password left out. */
const shown = (url) => url.replace(/\/\/[^@/]*@/, '//…@');

/**
 * Runs `work(client, name, quotedName)` against the PostgreSQL server of the cluster's database, connected to its
 * `postgres` database (with the server's own PostgreSQL client).
 */
function onDatabaseServer(work, failure) {
  const script = `
    const pg = require('pg');
    const target = new URL(process.argv[1]);
    const name = decodeURIComponent(target.pathname.slice(1));
    const quoted = '"' + name.replace(/"/g, '""') + '"';
    const admin = new URL(target); admin.pathname = '/postgres';
    (async () => {
      // Bounded: stopping must end within the e2e run's 15 s grace, never hang on an unreachable server.
      const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 5000, statement_timeout: 8000 });
      await client.connect();
      await (${work})(client, name, quoted);
      await client.end();
    })().catch((error) => { console.error(error.message); process.exit(1); });`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script, databaseUrl], { cwd: join(root, 'server'), stdio: 'inherit' });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${failure} ${shown(databaseUrl)}`))));
  });
}

/** Creates the cluster's database when it is missing. */
const ensureDatabase = () =>
  onDatabaseServer(
    `async (client, name, quoted) => {
      const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount === 0) await client.query('CREATE DATABASE ' + quoted);
    }`,
    'cannot create or reach the database at',
  );

const dropDatabase = () => onDatabaseServer(`(client, name, quoted) => client.query('DROP DATABASE IF EXISTS ' + quoted + ' WITH (FORCE)')`, 'cannot drop the database at');

// Stopping (Ctrl-C, or the e2e run's SIGTERM) may come at any point from here on: whatever was started by then
// is stopped, and a database of the run's own is dropped even before a node was started.
const children = [];
let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  const exited = children.map((child) => (child.exitCode !== null || child.signalCode !== null ? null : new Promise((resolve) => child.once('exit', resolve))));
  for (const child of children) child.kill('SIGTERM');
  await Promise.race([Promise.all(exited), new Promise((resolve) => setTimeout(resolve, 3000))]);
  if (dropDatabaseOnStop) {
    for (const child of children) child.kill('SIGKILL');
    await dropDatabase().catch((error) => log(error.message));
  }
  process.exit(0);
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void stop());

await ensureDependencies();
await buildStale();
const haproxy = await ensureTool('haproxy');
const [missing] = await notListening(services);
if (missing) {
  const [name, url, , variable] = missing;
  throw new Error(`${name} is not running at ${shown(url)} (start it, or set ${variable})`);
}
await ensureDatabase();

function start(name, command, args, env) {
  if (stopping) return undefined; // stopped meanwhile (during a wait): nothing new that stop() would miss
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr]) {
    stream.on('data', (chunk) => {
      for (const line of String(chunk).split('\n')) if (line.trim()) process.stdout.write(`[${name}] ${line}\n`);
    });
  }
  child.on('exit', (code, signal) => {
    if (!stopping) log(`${name} exited (${signal ?? code})`);
  });
  children.push(child);
  return child;
}

// Uploaded files: one folder for every node (they share this machine's disk; on several machines, see the docs).
const filesDir = join(dataDir, 'files');
mkdirSync(filesDir, { recursive: true });
const nodes = Array.from({ length: NODES }, (_, index) => ({ id: `node-${index + 1}`, port: firstNodePort + index }));
const nodeProcesses = new Map();
for (const node of nodes) {
  nodeProcesses.set(node.id, start(node.id, process.execPath, ['--enable-source-maps', join(root, 'server', 'dist', 'main.js')], {
    HOST: '127.0.0.1',
    PORT: String(node.port),
    NODE_ID: node.id,
    CLUSTER_NAME: clusterName,
    DATABASE_URL: databaseUrl,
    NATS_URL: natsUrl,
    REDIS_URL: redisUrl,
    FILES_DIR: filesDir,
    DATA_DIR: dataDir,
    // HAProxy says who the client is (X-Forwarded-For): per-address limits count people, not the balancer.
    TRUST_PROXY: 'true',
  }));
}

// The balancer starts once every node answers its health check: started before, it marks each one DOWN (a
// warning per node and backend in the log) and then UP again as they come.
// A node that exited is not waited for (its exit is in the log; the balancer leaves it out).
const nodesDeadline = Date.now() + 120_000;
const health = (url) => fetch(url, { signal: AbortSignal.timeout(2000) }).then((response) => response.ok, () => false);
for (const node of nodes) {
  const child = nodeProcesses.get(node.id);
  while (!stopping && Date.now() < nodesDeadline && child && child.exitCode === null && child.signalCode === null) {
    if (await health(`http://127.0.0.1:${node.port}/api/health`)) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const config = haproxyConfig({ port, nodes });
const configDir = mkdtempSync(join(tmpdir(), 'msgr-haproxy-'));
const configFile = join(configDir, 'haproxy.cfg');
writeFileSync(configFile, config);
start('haproxy', haproxy, ['-db', '-f', configFile], {});

// Ready when the balancer answers with a healthy node behind it.
const deadline = Date.now() + 120_000;
for (;;) {
  if (await health(`http://127.0.0.1:${port}/api/health`)) break;
  if (Date.now() > deadline) {
    log('The cluster did not become healthy within 2 minutes');
    stop();
    break;
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
}
if (!stopping) {
  log(`The cluster is up: http://localhost:${port} (HAProxy → ${nodes.map((node) => `${node.id} :${node.port}`).join(', ')})`);
  log(`PostgreSQL ${shown(databaseUrl)}, NATS ${shown(natsUrl)}, Redis ${shown(redisUrl)}, cluster "${clusterName}". Ctrl-C stops it.`);
}
