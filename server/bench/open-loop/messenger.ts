// Our server as a target of the open-loop benchmark: the built server (`dist/main.js`) in its own process, pinned
// to the server's core, on embedded PGlite in a fresh folder or on a fresh PostgreSQL database. Every person signs
// in through the real API and holds two sockets, as the browser does: the chat socket to send, `/user/flow` to
// receive.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import WebSocket from 'ws';
import { USERS, rssBytes, type Target } from './driver.js';

const serverDir = fileURLToPath(new URL('../..', import.meta.url));

export interface MessengerOptions {
  database: 'pglite' | 'postgres';
  /** Admin URL of the PostgreSQL server (a database of the run's own is created on it, and dropped). */
  postgresUrl: string;
  port: number;
  /** CPU the server (and PostgreSQL's processes) run on. */
  serverCpu: number;
  /** Extra arguments for node (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
  cwd?: string;
  /** Settings of the run's PostgreSQL database (`ALTER DATABASE … SET`), e.g. `log_statement`. */
  databaseSettings?: Record<string, string>;
}

interface Person {
  id: number;
  token: string;
  chatId: number;
  chat: WebSocket;
  flow: WebSocket;
}

async function api(base: string, method: string, path: string, body?: unknown, token?: string): Promise<any> {
  const response = await fetch(`${base}/api${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

function openSocket(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** The postmaster and every process it started (backends, WAL writer, checkpointer…). */
export function postgresPids(): number[] {
  const postmaster = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .find((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return stat.includes('(postgres)') && stat.split(') ')[1]!.split(' ')[1] === '1';
      } catch {
        return false;
      }
    });
  if (postmaster === undefined) return [];
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    // no children listed
  }
  return [postmaster, ...children];
}

/** Pins processes to one CPU (`taskset`), e.g. the PostgreSQL cluster to the server's core for the run. */
export function pin(pids: number[], cpuList: string): void {
  for (const pid of pids) spawnSync('taskset', ['-a', '-cp', cpuList, String(pid)], { stdio: 'ignore' });
}

export class MessengerTarget implements Target {
  readonly name: string;
  private child: ChildProcess | null = null;
  private people: Person[] = [];
  private deliver: (to: number, id: number) => void = () => undefined;
  private dataDir = '';
  private dropDatabase: (() => Promise<void>) | null = null;
  private readonly base: string;
  /** The run's own PostgreSQL database. */
  databaseName = '';

  constructor(private readonly options: MessengerOptions) {
    this.name = options.database === 'pglite' ? 'messenger on PGlite (embedded, synced to disk)' : 'messenger on PostgreSQL';
    this.base = `http://127.0.0.1:${options.port}`;
  }

  async start(): Promise<void> {
    this.dataDir = mkdtempSync(join(tmpdir(), 'msgr-openloop-'));
    let databaseUrl = '';
    if (this.options.database === 'postgres') {
      const name = `msgr_openloop_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: this.options.postgresUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      for (const [setting, value] of Object.entries(this.options.databaseSettings ?? {})) {
        await admin.query(`ALTER DATABASE ${name} SET ${setting} = '${value.replace(/'/g, "''")}'`);
      }
      await admin.end();
      this.databaseName = name;
      const url = new URL(this.options.postgresUrl);
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
      this.dropDatabase = async () => {
        const client = new pg.Client({ connectionString: this.options.postgresUrl });
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await client.end();
      };
      pin(postgresPids(), String(this.options.serverCpu));
    }
    this.child = spawn(
      'taskset',
      ['-c', String(this.options.serverCpu), process.execPath, ...(this.options.nodeArgs ?? []), join(serverDir, 'dist', 'main.js')],
      {
        cwd: this.options.cwd ?? this.dataDir,
        env: {
          ...process.env,
          PORT: String(this.options.port),
          HOST: '127.0.0.1',
          DATA_DIR: this.dataDir,
          DATABASE_URL: databaseUrl,
          LOG_LEVEL: 'warn',
          CLIENT_ROOT: '/nonexistent',
          ACCESS_TOKEN_TTL_SECONDS: '86400',
          OTP_PER_IP_PER_HOUR: '1000000',
          // The benchmark measures the write path: the per-person limits are lifted out of its way.
          RATE_MESSAGES_PER_10S: '100000000',
          RATE_SOCKETS_PER_MINUTE: '100000',
          RATE_LOOKUPS_PER_MINUTE: '100000',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    const deadline = Date.now() + 60_000;
    for (;;) {
      const healthy = await fetch(`${this.base}/api/health`).then((response) => response.ok, () => false);
      if (healthy) break;
      if (Date.now() > deadline || this.child.exitCode !== null) throw new Error('the server did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Sign everybody in, make the pairs' chats, open both sockets per person.
    const signedIn: Array<{ id: number; token: string; phone: string }> = [];
    for (let index = 0; index < USERS; index += 1) {
      const phone = `+49151${String(10_000_000 + index * 37 + Math.floor(Math.random() * 30)).padStart(8, '0')}`;
      await api(this.base, 'POST', '/auth/send-code', { phone });
      const { code } = await api(this.base, 'GET', `/dev/sms?phone=${encodeURIComponent(phone)}`);
      const { jwt_info: jwt } = await api(this.base, 'POST', '/auth/sign-in', { phone, code });
      const { user } = await api(this.base, 'GET', '/user', undefined, jwt.access_token);
      signedIn.push({ id: user.id, token: jwt.access_token, phone });
    }
    const chats: number[] = [];
    for (let index = 0; index < USERS; index += 2) {
      const [a, b] = [signedIn[index]!, signedIn[index + 1]!];
      await api(this.base, 'POST', '/user/contacts/add', { user_phone: b.phone, name: 'Partner' }, a.token);
      const { chat } = await api(this.base, 'POST', '/chat/create', { chat_type: 'private', participants: [b.id] }, a.token);
      chats[index] = chats[index + 1] = chat.id;
    }
    const ws = this.base.replace('http', 'ws');
    this.people = await Promise.all(
      signedIn.map(async (person, index) => {
        const chat = await openSocket(`${ws}/api/chat/socket?token=${encodeURIComponent(person.token)}`);
        const flow = await openSocket(`${ws}/api/user/flow?token=${encodeURIComponent(person.token)}`);
        flow.on('message', (data) => {
          const event = JSON.parse(String(data));
          const message = event.additional_info?.message;
          if (event.event_type !== 'text' || !message || message.sender_id === person.id) return;
          this.deliver(index, Number(message.text.slice(2)));
        });
        return { id: person.id, token: person.token, chatId: chats[index]!, chat, flow };
      }),
    );
  }

  serverPids(): number[] {
    const own = this.child?.pid === undefined ? [] : [this.child.pid];
    return this.options.database === 'postgres' ? [...own, ...postgresPids()] : own;
  }

  databasePids(): number[] {
    return this.options.database === 'postgres' ? postgresPids() : [];
  }

  serverRss(): number {
    return this.child?.pid === undefined ? 0 : rssBytes(this.child.pid);
  }

  send(from: number, id: number): void {
    const person = this.people[from]!;
    person.chat.send(`{"type":"send","client_id":"${randomUUID()}","chat_id":${person.chatId},"text":"b:${id}"}`);
  }

  onDeliver(deliver: (to: number, id: number) => void): void {
    this.deliver = deliver;
  }

  /** Stops the server with SIGINT (so a `--cpu-prof` profile is written) and removes its data. */
  async close(): Promise<void> {
    for (const person of this.people) {
      person.chat.terminate();
      person.flow.terminate();
    }
    const child = this.child;
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    if (this.options.database === 'postgres') pin(postgresPids(), '0-1');
    await this.dropDatabase?.();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
