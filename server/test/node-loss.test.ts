import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { findTool } from '../../scripts/debian-tools.mjs';
import { haproxyConfig } from '../../scripts/haproxy-config.mjs';
import { createPostgresDatabase, testDatabase, testNatsUrl, testRedisUrl, type TestServer } from './helpers/server.js';
import { type Person, privateChat, signUp, waitFor } from './helpers/client.js';
import { freePort, serverProcess, type ServerProcess } from './helpers/process.js';

// Issue 11: 20 people chatting through HAProxy while one node is killed with SIGKILL and later restarted, then
// another. Every acknowledged message must reach its reader exactly once and in order, with a gapless seq; each
// client reconnects through the balancer and resumes, as the browser's does. PostgreSQL (a cluster needs it), NATS
// and Redis run on our machines; `npm test` installs Debian's HAProxy when it is missing. Outside CI a missing
// piece skips the test with a clear line; under CI=true it must run.
const haproxy = findTool('haproxy');
const skip =
  testDatabase !== 'postgres'
    ? 'a cluster needs PostgreSQL'
    : !haproxy && process.env.CI !== 'true'
      ? 'HAProxy is not installed (apt-get install haproxy, or HAPROXY_PATH)'
      : false;

const NODES = 3;
const PAIRS = 10;
/** Each person sends one message this often: 20 people, 100 messages a second in all. */
const SEND_EVERY_MS = 200;

/**
 * One person's client, as the browser's behaves: sends wait in order until acknowledged and go again on every new
 * chat socket; the flow socket reconnects with `since` = the last seq seen. It records what the test checks:
 * seq gaps, texts from the partner out of order or twice, and how long each reconnection took.
 */
class Chatter {
  private chat: WebSocket | null = null;
  private flow: WebSocket | null = null;
  private lastSeq = 0;
  private nextNumber = 0;
  private stopped = false;
  /** client id → frame, in sending order (a Map keeps insertion order). */
  readonly pending = new Map<string, string>();
  readonly acked = new Set<number>();
  /** The numbers of the partner's texts, as they arrived. */
  readonly received: number[] = [];
  readonly problems: string[] = [];
  /** Milliseconds from a socket's loss to its replacement being open. */
  readonly reconnections: number[] = [];

  constructor(
    readonly person: Person,
    readonly chatId: number,
    private readonly wsUrl: string,
  ) {}

  async start(): Promise<void> {
    await Promise.all([this.openChat(), this.openFlow()]);
  }

  send(): void {
    const clientId = randomUUID();
    const frame = JSON.stringify({ type: 'send', client_id: clientId, chat_id: this.chatId, text: `n:${this.nextNumber}` });
    this.nextNumber += 1;
    this.pending.set(clientId, frame);
    if (this.chat?.readyState === WebSocket.OPEN) this.chat.send(frame);
  }

  get sent(): number {
    return this.nextNumber;
  }

  stop(): void {
    this.stopped = true;
    this.chat?.terminate();
    this.flow?.terminate();
  }

  private async openChat(lostAt?: number): Promise<void> {
    const socket = await this.reconnect(`${this.wsUrl}/api/chat/socket?token=${this.person.token}`, (data) => {
      const frame = JSON.parse(data);
      if (frame.type !== 'ack') {
        if (frame.type === 'error') this.problems.push(`refused: ${data}`);
        return;
      }
      this.pending.delete(frame.client_id);
      this.acked.add(Number(String(frame.message.text).slice(2)));
    });
    if (!socket) return;
    if (lostAt !== undefined) this.reconnections.push(performance.now() - lostAt);
    this.chat = socket;
    socket.on('close', () => {
      if (this.chat === socket) this.chat = null;
      if (!this.stopped) void this.openChat(performance.now());
    });
    for (const frame of this.pending.values()) socket.send(frame);
  }

  private async openFlow(lostAt?: number): Promise<void> {
    const since = this.lastSeq > 0 ? `&since=${this.lastSeq}` : '';
    const socket = await this.reconnect(`${this.wsUrl}/api/user/flow?token=${this.person.token}${since}`, (data) => this.onEvent(JSON.parse(data)));
    if (!socket) return;
    if (lostAt !== undefined) this.reconnections.push(performance.now() - lostAt);
    this.flow = socket;
    socket.on('close', () => {
      if (this.flow === socket) this.flow = null;
      if (!this.stopped) void this.openFlow(performance.now());
    });
  }

  private onEvent(event: any): void {
    if (event.event_type === 'resync') {
      this.problems.push(`resync at seq ${this.lastSeq}`);
      return;
    }
    // The first connection (no `since`) starts at the log's current end, which `ready` names.
    if (event.event_type === 'ready' && this.lastSeq === 0) this.lastSeq = event.additional_info.seq;
    if (typeof event.seq !== 'number') return; // `ready` and other frames outside the log
    if (event.seq <= this.lastSeq) return; // a replay overlapping what came live: already seen
    if (event.seq !== this.lastSeq + 1) this.problems.push(`seq gap: ${this.lastSeq} → ${event.seq}`);
    this.lastSeq = event.seq;
    const message = event.additional_info?.message;
    if (event.event_type !== 'text' || !message || message.sender_id === this.person.id) return;
    const number = Number(String(message.text).slice(2));
    const expected = this.received.length;
    if (number !== expected) this.problems.push(`from the partner: got n:${number} where n:${expected} was next`);
    this.received.push(number);
  }

  /** Opens a socket through the balancer, again every 50 ms until it opens (or the test stops). */
  private async reconnect(url: string, onMessage: (data: string) => void): Promise<WebSocket | null> {
    while (!this.stopped) {
      const socket = await new Promise<WebSocket | null>((resolve) => {
        // The handler is attached before 'open': a flow socket's replay can come in the same turn.
        const attempt = new WebSocket(url, { handshakeTimeout: 5_000 });
        attempt.on('message', (data) => onMessage(String(data)));
        attempt.once('open', () => resolve(attempt));
        attempt.once('error', () => resolve(null));
        attempt.once('close', () => resolve(null));
      });
      if (socket?.readyState === WebSocket.OPEN) return socket;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return null;
  }
}

describe('losing a node of the cluster', { skip }, () => {
  const nodes: ServerProcess[] = [];
  let balancer: ChildProcess | undefined;
  let balancerUrl = '';
  let configDir = '';
  let dropDatabase: (() => Promise<void>) | undefined;

  before(async () => {
    assert.ok(haproxy, 'HAProxy is required under CI=true: `npm test` installs it (apt-get install haproxy) or set HAPROXY_PATH');
    const database = await createPostgresDatabase('msgr_loss');
    dropDatabase = database.dropDatabase;
    const clusterName = `loss_${process.pid}_${randomBytes(4).toString('hex')}`;
    const startNode = (index: number) =>
      serverProcess(
        {
          NODE_ID: `node-${index + 1}`,
          CLUSTER_NAME: clusterName,
          NATS_URL: testNatsUrl,
          REDIS_URL: testRedisUrl,
          RATE_MESSAGES_PER_10S: '100000',
        },
        { sharedDatabaseUrl: database.databaseUrl },
      );
    // The first one alone (it migrates the fresh database), then the others together.
    nodes.push(await startNode(0));
    const others = await Promise.allSettled(Array.from({ length: NODES - 1 }, (_, index) => startNode(index + 1)));
    for (const started of others) if (started.status === 'fulfilled') nodes.push(started.value); // stopped after, whatever happens
    for (const started of others) if (started.status === 'rejected') throw started.reason;
    const port = await freePort();
    configDir = await mkdtemp(join(tmpdir(), 'msgr-loss-haproxy-'));
    const configFile = join(configDir, 'haproxy.cfg');
    const backends = nodes.map((node, index) => ({ id: `node-${index + 1}`, port: Number(new URL(node.url).port) }));
    await writeFile(configFile, haproxyConfig({ port, nodes: backends }));
    // HAProxy reports each node going down and up on stderr: kept, and shown only if it never answers.
    balancer = spawn(haproxy!, ['-db', '-f', configFile], { stdio: ['ignore', 'ignore', 'pipe'] });
    let balancerLog = '';
    balancer.stderr!.on('data', (chunk) => (balancerLog = (balancerLog + String(chunk)).slice(-4000)));
    balancerUrl = `http://127.0.0.1:${port}`;
    await waitFor(() => fetch(`${balancerUrl}/api/health`).then((response) => response.ok, () => false), 'HAProxy to answer').catch((error) => {
      throw new Error(`${error.message}\n${balancerLog}`);
    });
  });

  after(async () => {
    balancer?.kill('SIGKILL');
    for (const node of nodes) await node.close();
    await dropDatabase?.();
    if (configDir) await rm(configDir, { recursive: true, force: true });
  });

  it('20 people chatting through the balancer lose nothing while nodes are killed (SIGKILL) and restarted', async () => {
    // Signed up on the first node directly: quicker than through the balancer, and no part of what is measured.
    const direct = nodes[0]! as unknown as TestServer;
    const chatters: Chatter[] = [];
    for (let pair = 0; pair < PAIRS; pair += 1) {
      const [anna, boris] = await Promise.all([signUp(direct), signUp(direct)]);
      const chatId = await privateChat(direct, anna, boris);
      const wsUrl = balancerUrl.replace('http', 'ws');
      chatters.push(new Chatter(anna, chatId, wsUrl), new Chatter(boris, chatId, wsUrl));
    }
    await Promise.all(chatters.map((chatter) => chatter.start()));
    const partner = (index: number) => chatters[index ^ 1]!;

    const sending = setInterval(() => {
      for (const chatter of chatters) chatter.send();
    }, SEND_EVERY_MS);
    const sentBy = (at: number) => chatters.reduce((sum, chatter) => sum + chatter.sent, 0) >= at;
    try {
      // Steady for a moment, then each loss in turn; each phase waits for messages to flow, not for a fixed time.
      let target = 300;
      await waitFor(() => sentBy(target), 'a steady stream before the first loss');
      for (const victim of [1, 2]) {
        await nodes[victim]!.kill();
        target += 300;
        await waitFor(() => sentBy(target), `messages sent while node ${victim + 1} is down`);
        await nodes[victim]!.start();
        target += 300;
        await waitFor(() => sentBy(target), `messages sent after node ${victim + 1} came back`);
      }
    } finally {
      clearInterval(sending);
    }

    // Everything sent is acknowledged in the end (re-sent through a live node), and reaches the partner.
    await waitFor(
      () => chatters.every((chatter) => chatter.pending.size === 0),
      'every message to be acknowledged',
      60_000,
    ).catch((error) => {
      throw new Error(`${error.message}: ${chatters.map((chatter) => chatter.pending.size).join(' ')} pending`);
    });
    await waitFor(
      () => chatters.every((chatter, index) => partner(index).received.length >= chatter.sent),
      'every message to reach its reader',
      60_000,
    ).catch((error) => {
      throw new Error(`${error.message}: ${chatters.map((chatter, index) => `${partner(index).received.length}/${chatter.sent}`).join(' ')}`);
    });
    for (const chatter of chatters) chatter.stop();

    const sent = chatters.reduce((sum, chatter) => sum + chatter.sent, 0);
    const reconnections = chatters.flatMap((chatter) => chatter.reconnections).sort((a, b) => a - b);
    console.log(
      `  ${sent} messages, ${reconnections.length} reconnections after the losses: ` +
        `p50 ${reconnections[Math.floor(reconnections.length / 2)]?.toFixed(0)} ms, max ${reconnections.at(-1)?.toFixed(0)} ms`,
    );
    assert.deepEqual(chatters.flatMap((chatter) => chatter.problems), []);
    chatters.forEach((chatter, index) => {
      // Exactly once and in order: the partner's numbers are 0, 1, 2 … with nothing missing or repeated.
      assert.deepEqual(
        partner(index).received,
        Array.from({ length: chatter.sent }, (_, number) => number),
      );
      assert.equal(chatter.acked.size, chatter.sent);
    });
    // Both losses cut someone off (leastconn spreads 40 sockets over the 3 nodes), and they came back.
    assert.ok(reconnections.length > 0, 'no socket was on a killed node');
    // A generous bound for a loaded machine; the figure itself is printed above (the issue asks for 3 s).
    assert.ok(reconnections.at(-1)! < 10_000, `a client took ${reconnections.at(-1)} ms to reconnect`);
  });
});
