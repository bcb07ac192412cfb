// The cluster's doorbell (issue 11): what the hop through NATS adds to delivery. Figures, not pass/fail.
// Two nodes in this process over one PostgreSQL, linked by the NATS at TEST_NATS_URL (default 127.0.0.1:4222).
// Sequential sends through node A; the recipient's socket on node A (rung in process) and, in the same run, on
// node B (rung through NATS): send → live event at the recipient, p50/p90/p99 of each, and their difference.
import { randomUUID } from 'node:crypto';
import { startCluster, testNatsUrl, type TestServer } from '../test/helpers/server.js';
import { SocketProbe, chatSocketUrl, events, flowUrl, privateChat, signUp } from '../test/helpers/client.js';
import { postgresReachable } from './reachable.js';

const SENDS = 500;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function summary(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(2)} ms, p90 ${percentile(sorted, 90).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms`;
}

const postgresUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
if (!(await postgresReachable(postgresUrl))) {
  console.log('\nCluster doorbell: skipped (no PostgreSQL reachable; a cluster needs one)');
  process.exit(0);
}
process.env.TEST_DATABASE = 'postgres';
const cluster = await startCluster(2, { RATE_MESSAGES_PER_10S: '1000000' });
try {
  const [nodeA, nodeB] = cluster.nodes as [TestServer, TestServer];
  const anna = await signUp(nodeA);
  const boris = await signUp(nodeA);
  const chatId = await privateChat(nodeA, anna, boris);
  const onA = await SocketProbe.open(flowUrl(nodeA, boris.token));
  const onB = await SocketProbe.open(flowUrl(nodeB, boris.token));
  for (const probe of [onA, onB]) await probe.until((frames) => frames.some((frame) => frame.event_type === 'ready'));
  const sender = await SocketProbe.open(chatSocketUrl(nodeA, anna.token));

  const sameNode: number[] = [];
  const otherNode: number[] = [];
  const arrived = (probe: SocketProbe, clientId: string) =>
    probe.until((frames) => events(frames).some((event) => event.additional_info.message?.client_id === clientId), 10_000).then(() => performance.now());
  for (let i = 0; i < SENDS; i += 1) {
    const clientId = randomUUID();
    const started = performance.now();
    const atA = arrived(onA, clientId);
    const atB = arrived(onB, clientId);
    sender.send({ type: 'send', client_id: clientId, chat_id: chatId, text: `bench ${i}` });
    sameNode.push((await atA) - started);
    otherNode.push((await atB) - started);
    // The probes keep every frame: forget them now and then so that looking for the next stays cheap.
    if (i % 50 === 49) for (const probe of [onA, onB]) probe.frames.length = 0;
  }
  const extra = otherNode.map((value, index) => value - sameNode[index]!);
  console.log(`\nCluster doorbell: 2 nodes, PostgreSQL, NATS at ${testNatsUrl}, ${SENDS} sequential sends through node A`);
  console.log(`  send → live event, recipient on node A (in process): ${summary(sameNode)}`);
  console.log(`  send → live event, recipient on node B (via NATS):   ${summary(otherNode)}`);
  console.log(`  added by the hop through NATS, per message:          ${summary(extra)}`);
  for (const probe of [onA, onB, sender]) probe.close();
} finally {
  await cluster.close();
}
