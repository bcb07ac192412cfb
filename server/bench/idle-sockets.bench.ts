// Idle connections: what one server process pays to hold many signed-in `/user/flow` sockets, and whether it still
// delivers promptly with them open. Figures, not pass/fail. The server runs as its own process (the built
// `dist/main.js`) on PostgreSQL, so that its resident memory is the server's own (embedded PGlite's memory moves by
// hundreds of MB on its own); this process holds the clients' ends.
//   IDLE_SOCKETS   how many sockets (default 19 000: a process may hold at most 20 000 files on our machines, and the
//                  server needs a few for itself)
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import WebSocket from 'ws';
import { rssBytes } from './open-loop/driver.js';

const SOCKETS = Number(process.env.IDLE_SOCKETS ?? 19_000);
const PEOPLE = 500;
const PAIRS_SENDING = 50;
const LIGHT_RATE = 100; // messages a second while the sockets are open
const serverDir = fileURLToPath(new URL('..', import.meta.url));
const port = 19_300 + Math.floor(Math.random() * 100);
const base = `http://127.0.0.1:${port}`;
const ws = base.replace('http', 'ws');
const dataDir = mkdtempSync(join(tmpdir(), 'msgr-idle-'));
const postgresAdmin = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseName = `msgr_idle_${process.pid}`;
const databaseUrl = new URL(postgresAdmin);
databaseUrl.pathname = `/${databaseName}`;
async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresAdmin });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
await admin(`CREATE DATABASE ${databaseName}`);

async function api(method: string, path: string, body?: unknown, token?: string): Promise<any> {
  const response = await fetch(`${base}/api${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

function open(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

const settle = async () => {
  // Let the server's garbage collector and allocator settle before reading its memory.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
};

const server = spawn(process.execPath, ['--expose-gc', join(serverDir, 'dist', 'main.js')], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl.toString(),
    LOG_LEVEL: 'warn',
    CLIENT_ROOT: '/nonexistent',
    ACCESS_TOKEN_TTL_SECONDS: '86400',
    OTP_PER_IP_PER_HOUR: '1000000',
    RATE_SOCKETS_PER_MINUTE: '1000000',
    RATE_LOOKUPS_PER_MINUTE: '1000000',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const sockets: WebSocket[] = [];
try {
  for (let started = Date.now(); !(await fetch(`${base}/api/health`).then((r) => r.ok, () => false)); ) {
    if (Date.now() - started > 60_000) throw new Error('the server did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const people: Array<{ id: number; token: string; phone: string }> = [];
  for (let index = 0; index < PEOPLE; index += 1) {
    const phone = `+49151${String(20_000_000 + index * 11).padStart(8, '0')}`;
    await api('POST', '/auth/send-code', { phone });
    const { code } = await api('GET', `/dev/sms?phone=${encodeURIComponent(phone)}`);
    const { jwt_info: jwt } = await api('POST', '/auth/sign-in', { phone, code });
    const { user } = await api('GET', '/user', undefined, jwt.access_token);
    people.push({ id: user.id, token: jwt.access_token, phone });
  }
  const chats: number[] = [];
  for (let pair = 0; pair < PAIRS_SENDING; pair += 1) {
    const [a, b] = [people[2 * pair]!, people[2 * pair + 1]!];
    await api('POST', '/user/contacts/add', { user_phone: b.phone, name: 'B' }, a.token);
    chats.push((await api('POST', '/chat/create', { chat_type: 'private', participants: [b.id] }, a.token)).chat.id);
  }
  // A few sockets first, so what is measured is the cost of each further one, not the first one's set-up.
  for (let index = 0; index < 100; index += 1) sockets.push(await open(`${ws}/api/user/flow?token=${encodeURIComponent(people[index % PEOPLE]!.token)}`));
  await settle();
  const before = rssBytes(server.pid!);
  const started = performance.now();
  for (let opened = 100; opened < SOCKETS; opened += 500) {
    const batch = Array.from({ length: Math.min(500, SOCKETS - opened) }, (_, offset) =>
      open(`${ws}/api/user/flow?token=${encodeURIComponent(people[(opened + offset) % PEOPLE]!.token)}`),
    );
    sockets.push(...(await Promise.all(batch)));
  }
  const openSeconds = (performance.now() - started) / 1000;
  await settle();
  const after = rssBytes(server.pid!);
  const perSocket = (after - before) / (SOCKETS - 100);
  if (process.env.IDLE_HEAP_SNAPSHOT) {
    server.kill('SIGUSR2');
    await new Promise((resolve) => setTimeout(resolve, 15_000));
  }

  // Light traffic with every socket open: the partner's flow socket is among those opened.
  const senders = await Promise.all(chats.map((_, pair) => open(`${ws}/api/chat/socket?token=${encodeURIComponent(people[2 * pair]!.token)}`)));
  const receivers = await Promise.all(chats.map((_, pair) => open(`${ws}/api/user/flow?token=${encodeURIComponent(people[2 * pair + 1]!.token)}`)));
  const latencies: number[] = [];
  const sentAt = new Map<string, number>();
  for (const receiver of receivers) {
    receiver.on('message', (data) => {
      const event = JSON.parse(String(data));
      const at = sentAt.get(event.additional_info?.message?.text);
      if (at !== undefined && event.event_type === 'text') latencies.push(performance.now() - at);
    });
  }
  const total = LIGHT_RATE * 10;
  for (let n = 0; n < total; n += 1) {
    const pair = n % chats.length;
    const text = `idle ${n}`;
    sentAt.set(text, performance.now());
    senders[pair]!.send(JSON.stringify({ type: 'send', client_id: randomUUID(), chat_id: chats[pair], text }));
    await new Promise((resolve) => setTimeout(resolve, 1000 / LIGHT_RATE));
  }
  const deadline = Date.now() + 10_000;
  while (latencies.length < total && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  latencies.sort((a, b) => a - b);
  const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1);
  console.log(`\nIdle sockets: ${SOCKETS} signed-in /user/flow sockets on one server process (PostgreSQL)`);
  console.log(`  opened in ${openSeconds.toFixed(1)} s; server RSS ${(before / 2 ** 20).toFixed(0)} MB → ${(after / 2 ** 20).toFixed(0)} MB`);
  console.log(`  memory per socket (RSS growth / sockets): ${(perSocket / 1024).toFixed(1)} KB`);
  console.log(
    `  with them open, ${LIGHT_RATE} messages/s for 10 s: ${latencies.length}/${total} delivered, p50 ${p(0.5)} ms, p99 ${p(0.99)} ms`,
  );
  for (const socket of [...senders, ...receivers]) socket.terminate();
} finally {
  for (const socket of sockets) socket.terminate();
  server.kill('SIGKILL');
  await new Promise((resolve) => setTimeout(resolve, 500));
  await admin(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  rmSync(dataDir, { recursive: true, force: true });
}
