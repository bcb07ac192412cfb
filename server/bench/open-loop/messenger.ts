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
import { PAIRS, rssBytes, type Target, type Topology } from './driver.js';

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
  /** Who talks to whom (private pairs by default; groups are group chats). */
  topology?: Topology;
  /**
   * Server nodes (PostgreSQL only; default 1). With more, the nodes (on ports `port`, `port + 1`, …) are linked by
   * the NATS at `natsUrl` and person i connects to node i mod nodes, so every message of a pair crosses nodes.
   */
  nodes?: number;
  natsUrl?: string;
}

const TRACE = Boolean(process.env.RESTART_DEBUG);

/** Which of a person's two sockets. */
export type SocketKind = 'chat' | 'flow';

/** What the benchmarks learn from the people's sockets. */
interface Observer {
  /** Message number `id` reached person `to` on their flow socket. */
  deliver(to: number, id: number): void;
  /** A send was acknowledged (stored). */
  acked(id: number): void;
  /** A person's socket opened, as the client saw it (the server answered its upgrade after checking token and account). */
  opened(person: number, kind: SocketKind): void;
}

/**
 * One person's two sockets, as our client keeps them: sends stay pending until acknowledged and go again, in order,
 * whenever the chat socket reconnects; the flow socket reconnects with `since` = the last seq seen. (In the plain
 * ramps nothing drops; the restart benchmark kills the server under them.)
 */
class Person {
  chat: WebSocket | null = null;
  flow: WebSocket | null = null;
  /** The last seq applied; null until the first connection's `ready` (as the real client's flow client does). */
  lastSeq: number | null = null;
  /** `resync` frames received: the server could not replay from `lastSeq` (the restart benchmark reports them). */
  resyncs = 0;
  /** With RESTART_DEBUG: what this person's flow socket saw (connects and frames), to explain a lost message. */
  readonly trace: string[] = [];
  readonly pending = new Map<string, { frame: string; id: number }>(); // client id → frame and message number
  closed = false;

  constructor(
    readonly index: number,
    readonly id: number,
    readonly token: string,
    readonly chatId: number,
    private readonly ws: string,
    private readonly observer: Observer,
  ) {}

  async connect(): Promise<void> {
    await Promise.all([this.openChat(), this.openFlow()]);
  }

  send(id: number): void {
    const clientId = randomUUID();
    const frame = `{"type":"send","client_id":"${clientId}","chat_id":${this.chatId},"text":"b:${id}"}`;
    this.pending.set(clientId, { frame, id });
    if (this.chat?.readyState === WebSocket.OPEN) this.chat.send(frame);
  }

  close(): void {
    this.closed = true;
    this.chat?.terminate();
    this.flow?.terminate();
  }

  private async openChat(): Promise<void> {
    const socket = await this.retry(() =>
      openSocket(`${this.ws}/api/chat/socket?token=${encodeURIComponent(this.token)}`, (data) => {
        // Only acknowledgements matter here; a refusal would leave the send pending (none is expected).
        const match = /^\{"type":"ack","client_id":"([^"]+)"/.exec(String(data));
        const acked = match && this.pending.get(match[1]!);
        if (!acked) return;
        this.pending.delete(match[1]!);
        this.observer.acked(acked.id);
      }),
    );
    if (!socket) return;
    this.observer.opened(this.index, 'chat');
    this.chat = socket;
    socket.on('close', () => {
      if (this.chat === socket) this.chat = null;
      if (!this.closed) void this.openChat();
    });
    for (const { frame } of this.pending.values()) socket.send(frame);
  }

  private async openFlow(): Promise<void> {
    const since = this.lastSeq === null ? '' : `&since=${this.lastSeq}`;
    if (TRACE) this.trace.push(`${Math.round(performance.now())} connecting since=${this.lastSeq}`);
    const socket = await this.retry(() =>
      openSocket(`${this.ws}/api/user/flow?token=${encodeURIComponent(this.token)}${since}`, (data) => this.onFlowFrame(String(data))),
    );
    if (!socket) return;
    this.observer.opened(this.index, 'flow');
    this.flow = socket;
    socket.on('close', () => {
      if (this.flow === socket) this.flow = null;
      if (!this.closed) void this.openFlow();
    });
  }

  private onFlowFrame(text: string): void {
    const event = JSON.parse(text);
    if (TRACE) this.trace.push(`${Math.round(performance.now())} ${event.event_type} seq=${event.seq ?? event.additional_info?.seq} ${event.additional_info?.message?.text ?? ''} last=${this.lastSeq}`);
    if (typeof event.seq === 'number') {
      if (this.lastSeq !== null && event.seq <= this.lastSeq) return; // already seen (a replay overlapping what came live)
      this.lastSeq = event.seq;
    } else if (event.event_type === 'ready') {
      // A first connection starts from the log's head; a reconnection must resume from there, not start again.
      this.lastSeq ??= event.additional_info.seq;
    } else if (event.event_type === 'resync') {
      this.resyncs += 1;
      this.lastSeq = event.additional_info.seq;
    }
    const message = event.additional_info?.message;
    if (event.event_type !== 'text' || !message || message.sender_id === this.id || !message.text?.startsWith('b:')) return;
    this.observer.deliver(this.index, Number(message.text.slice(2)));
  }

  /** Opens a socket, trying again every 100 ms while the server is away (the restart benchmark). */
  private async retry(open: () => Promise<WebSocket>): Promise<WebSocket | null> {
    for (;;) {
      if (this.closed) return null;
      try {
        return await open();
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }
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

/**
 * Opens a socket with its message handler attached from the start: ws can emit the frames that arrived with the
 * upgrade's answer (a flow socket's replay, sent at once) in the same turn as 'open', before an `await` on the
 * open socket resumes — a handler attached after it missed them (the restart bench counted them as lost).
 */
function openSocket(url: string, onMessage: (data: WebSocket.RawData) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    // A handshake that never completes (a server dying or starting under it) fails after 5 s and is tried again.
    const socket = new WebSocket(url, { handshakeTimeout: 5_000 });
    socket.on('message', onMessage);
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
    socket.once('close', () => reject(new Error('closed before it opened')));
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

/** The local NATS server's process (pinned beside the nodes in a cluster run). */
function natsServerPids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/stat`, 'utf8').includes('(nats-server)');
      } catch {
        return false;
      }
    });
}

export class MessengerTarget implements Target {
  readonly name: string;
  private children: ChildProcess[] = [];
  private people: Person[] = [];
  private deliver: (to: number, id: number) => void = () => undefined;
  private acked: (id: number) => void = () => undefined;
  private opened: (person: number, kind: SocketKind) => void = () => undefined;
  private dataDir = '';
  private dropDatabase: (() => Promise<void>) | null = null;
  private readonly base: string;
  /** The run's own PostgreSQL database. */
  databaseName = '';

  constructor(private readonly options: MessengerOptions) {
    if (this.nodes > 1 && options.database !== 'postgres') throw new Error('several nodes need PostgreSQL');
    this.name =
      options.database === 'pglite'
        ? 'messenger on PGlite (embedded, synced to disk)'
        : this.nodes > 1
          ? `messenger, ${this.nodes} nodes + NATS, PostgreSQL`
          : 'messenger on PostgreSQL';
    this.base = this.nodeBase(0);
  }

  private get nodes(): number {
    return this.options.nodes ?? 1;
  }

  private nodeBase(node: number): string {
    return `http://127.0.0.1:${this.options.port + node}`;
  }

  /** The first node's process (the only one of a single-node run). */
  private get child(): ChildProcess | null {
    return this.children[0] ?? null;
  }

  private databaseUrl = '';

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
      if (this.nodes > 1) pin(natsServerPids(), String(this.options.serverCpu));
    }
    this.databaseUrl = databaseUrl;
    await this.startProcess();
    await this.seed();
  }

  /** Kills the server with SIGKILL and starts it again on the same data; people reconnect and resume. */
  async restart(): Promise<void> {
    if (this.nodes > 1) throw new Error('restart() is for a single node');
    const child = this.child;
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    await this.startProcess();
  }

  private async startProcess(): Promise<void> {
    const clusterName = `msgr-bench-${randomBytes(3).toString('hex')}`;
    // Nodes start one after another: the first migrates the fresh database alone.
    this.children = [];
    for (let node = 0; node < this.nodes; node += 1) await this.startNode(node, clusterName);
  }

  /** Starts one node (kept in `children` at once, so that `close()` stops it even if it never becomes healthy). */
  private async startNode(node: number, clusterName: string): Promise<void> {
    const databaseUrl = this.databaseUrl;
    // One node is one process alone, whatever NATS_URL or REDIS_URL the bench itself was given.
    const cluster =
      this.nodes > 1
        ? { NATS_URL: this.options.natsUrl ?? 'nats://127.0.0.1:4222', NODE_ID: `bench-${node + 1}`, CLUSTER_NAME: clusterName }
        : { NATS_URL: '', REDIS_URL: '' };
    const child = spawn(
      'taskset',
      ['-c', String(this.options.serverCpu), process.execPath, ...(this.options.nodeArgs ?? []), join(serverDir, 'dist', 'main.js')],
      {
        cwd: this.options.cwd ?? this.dataDir,
        env: {
          ...process.env,
          ...cluster,
          PORT: String(this.options.port + node),
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
    this.children.push(child);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const healthy = await fetch(`${this.nodeBase(node)}/api/health`).then((response) => response.ok, () => false);
      if (healthy) return;
      if (Date.now() > deadline || child.exitCode !== null) throw new Error('the server did not start');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  private async seed(): Promise<void> {
    // Sign everybody in, make the pairs' (or groups') chats, open both sockets per person.
    const { users, groupSize } = this.options.topology ?? PAIRS;
    const signedIn: Array<{ id: number; token: string; phone: string }> = [];
    for (let index = 0; index < users; index += 1) {
      const phone = `+49151${String(10_000_000 + index * 37 + Math.floor(Math.random() * 30)).padStart(8, '0')}`;
      await api(this.base, 'POST', '/auth/send-code', { phone });
      const { code } = await api(this.base, 'GET', `/dev/sms?phone=${encodeURIComponent(phone)}`);
      const { jwt_info: jwt } = await api(this.base, 'POST', '/auth/sign-in', { phone, code });
      const { user } = await api(this.base, 'GET', '/user', undefined, jwt.access_token);
      signedIn.push({ id: user.id, token: jwt.access_token, phone });
    }
    const chats: number[] = [];
    for (let index = 0; index < users; index += groupSize) {
      const members = signedIn.slice(index, index + groupSize);
      const [owner, ...others] = members;
      let chatId: number;
      if (groupSize === 2) {
        await api(this.base, 'POST', '/user/contacts/add', { user_phone: others[0]!.phone, name: 'Partner' }, owner!.token);
        chatId = (await api(this.base, 'POST', '/chat/create', { chat_type: 'private', participants: [others[0]!.id] }, owner!.token)).chat.id;
      } else {
        const body = { chat_type: 'group', name: `Group ${index / groupSize}`, participants: others.map((member) => member.id) };
        chatId = (await api(this.base, 'POST', '/chat/create', body, owner!.token)).chat.id;
      }
      for (let member = index; member < index + groupSize; member += 1) chats[member] = chatId;
    }
    this.people = signedIn.map((person, index) => {
      const ws = this.nodeBase(index % this.nodes).replace('http', 'ws');
      return new Person(index, person.id, person.token, chats[index]!, ws, {
        deliver: (to, id) => this.deliver(to, id),
        acked: (id) => this.acked(id),
        opened: (person, kind) => this.opened(person, kind),
      });
    });
    await Promise.all(this.people.map((person) => person.connect()));
  }

  serverPids(): number[] {
    const own = this.children.flatMap((child) => (child.pid === undefined ? [] : [child.pid]));
    const nats = this.nodes > 1 ? natsServerPids() : [];
    return this.options.database === 'postgres' ? [...own, ...postgresPids(), ...nats] : own;
  }

  databasePids(): number[] {
    return this.options.database === 'postgres' ? postgresPids() : [];
  }

  /** Resident memory of the server's node processes, together. */
  serverRss(): number {
    return this.children.reduce((sum, child) => sum + (child.pid === undefined ? 0 : rssBytes(child.pid)), 0);
  }

  send(from: number, id: number): void {
    this.people[from]!.send(id);
  }

  /** Sends not yet acknowledged, across everybody. */
  unacknowledged(): number {
    return this.people.reduce((sum, person) => sum + person.pending.size, 0);
  }

  trace(person: number): string[] {
    return this.people[person]!.trace;
  }

  /** `resync` frames across everybody: each means a client had to reload instead of resuming. */
  resyncs(): number {
    return this.people.reduce((sum, person) => sum + person.resyncs, 0);
  }

  /** Whether the server stored the message `text` in the chat of person `from` (debugging a lost message). */
  async stored(from: number, text: string): Promise<boolean> {
    const person = this.people[from]!;
    const found = await api(this.base, 'GET', `/chat/search?chat_id=${person.chatId}&query=${encodeURIComponent(text)}`, undefined, person.token);
    // Texts are `b:<id>` with ids below 20 000, so a match on `b:<id>` is that message (the ids near the kill
    // have four or five digits; no valid id extends another by a digit there).
    return (found.message_ids ?? []).length > 0;
  }

  onDeliver(deliver: (to: number, id: number) => void): void {
    this.deliver = deliver;
  }

  /** Called with a message's number when its sender's send is acknowledged. */
  onAck(acked: (id: number) => void): void {
    this.acked = acked;
  }

  /** Called at every opening of a person's socket, reopenings included (the restart bench times them after a kill). */
  onSocketOpen(opened: (person: number, kind: SocketKind) => void): void {
    this.opened = opened;
  }

  /** Stops the server with SIGINT (so a `--cpu-prof` profile is written) and removes its data. */
  async close(): Promise<void> {
    for (const person of this.people) person.close();
    await Promise.all(
      this.children.map(async (child) => {
        if (child.exitCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGINT');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }),
    );
    if (this.options.database === 'postgres') pin(postgresPids(), '0-1');
    if (this.nodes > 1) pin(natsServerPids(), '0-1');
    await this.dropDatabase?.();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
