// Delivery benchmark: figures, not pass/fail. A real server (in process) on a fresh database, real sockets.
//   1. send → ack (committed) and send → live event at the recipient, sequential sends: p50/p90/p99
//   2. throughput with 10 concurrent senders to one recipient
//   3. resume: events replayed per second to a client that was away
//   4. one person flooding valid sends (10 000 frames/s for 2 s, reconnecting whenever cut off) against another
//      person's send → ack latency: quiet p99 against p99 during the flood
// Runs on embedded PGlite in a folder (with and without disk syncs: their cost), and on PostgreSQL when one is
// reachable (DATABASE_URL or the local default).
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startServer, type TestServer } from '../test/helpers/server.js';
import { SocketProbe, chatSocketUrl, events, flowUrl, privateChat, signUp } from '../test/helpers/client.js';
import { postgresReachable } from './reachable.js';

const SEQUENTIAL = 300;
const SENDERS = 10;
const PER_SENDER = 50;
const MISSED = 2000;
/** Sends a well-behaved client keeps unanswered at once (our client's `sendWindow` is 16). */
const WINDOW = 100;
const FLOOD_RATE = 10_000;
const FLOOD_SECONDS = 2.5;
const QUIET_PEOPLE = 5;
/** Throughput sections measure the write path, not the per-person limit: it is raised out of the way there. */
const UNLIMITED = { RATE_MESSAGES_PER_10S: '1000000' };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function summary(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(2)} ms, p90 ${percentile(sorted, 90).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms`;
}

async function bench(label: string, database: 'pglite' | 'postgres', durable = true): Promise<void> {
  process.env.TEST_DATABASE = database;
  const server: TestServer = await startServer(UNLIMITED, { onDisk: true, durable });
  try {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    const flow = await SocketProbe.open(flowUrl(server, boris.token));
    await flow.until((frames) => frames.some((frame) => frame.event_type === 'ready'));
    const sender = await SocketProbe.open(chatSocketUrl(server, anna.token));

    // 1. Sequential sends.
    const ackTimes: number[] = [];
    const deliveryTimes: number[] = [];
    for (let i = 0; i < SEQUENTIAL; i += 1) {
      const clientId = randomUUID();
      const started = performance.now();
      const delivered = flow
        .until((frames) => events(frames).some((event) => event.additional_info.message?.client_id === clientId), 10_000)
        .then(() => performance.now());
      sender.send({ type: 'send', client_id: clientId, chat_id: chatId, text: `sequential ${i}` });
      await sender.until((frames) => frames.some((frame) => frame.client_id === clientId), 10_000);
      ackTimes.push(performance.now() - started);
      deliveryTimes.push((await delivered) - started);
    }

    // 2. Concurrent senders to one recipient.
    const others = await Promise.all(Array.from({ length: SENDERS }, () => signUp(server)));
    const chats = await Promise.all(others.map((other) => privateChat(server, other, boris)));
    const started = performance.now();
    await Promise.all(
      others.map(async (other, index) => {
        const socket = await SocketProbe.open(chatSocketUrl(server, other.token));
        for (let i = 0; i < PER_SENDER; i += 1) socket.send({ type: 'send', client_id: randomUUID(), chat_id: chats[index], text: `burst ${i}` });
        await socket.until((frames) => frames.filter((frame) => frame.type === 'ack').length === PER_SENDER, 60_000);
        socket.close();
      }),
    );
    const burst = (frames: any[]) => events(frames).filter((event) => String(event.additional_info.message?.text).startsWith('burst')).length;
    await flow.until((frames) => burst(frames) === SENDERS * PER_SENDER, 60_000);
    const burstSeconds = (performance.now() - started) / 1000;
    const seqs = events(flow.frames).map((event) => event.seq);
    const gapless = seqs.every((seq, index) => index === 0 || seq === seqs[index - 1]! + 1);
    const lastSeen = seqs.at(-1)!;
    flow.close();

    // 3. Resume after missing many events.
    for (let i = 0; i < MISSED; i += 1) {
      sender.send({ type: 'send', client_id: randomUUID(), chat_id: chatId, text: `missed ${i}` });
      // A window of unanswered sends, as a real client keeps (a socket piling up more is cut off as a flood).
      if ((i + 1) % WINDOW === 0) await sender.until((frames) => frames.filter((frame) => frame.type === 'ack').length >= SEQUENTIAL + i + 1 - WINDOW / 2, 120_000);
    }
    await sender.until((frames) => frames.filter((frame) => frame.type === 'ack').length === SEQUENTIAL + MISSED, 120_000);
    const resumeStarted = performance.now();
    const resumed = await SocketProbe.open(flowUrl(server, boris.token, lastSeen));
    await resumed.until((frames) => frames.some((frame) => frame.event_type === 'ready'), 120_000);
    const resumeSeconds = (performance.now() - resumeStarted) / 1000;
    const replayed = events(resumed.frames).length;
    resumed.close();
    sender.close();

    console.log(`\n${label}`);
    console.log(`  send → ack (committed), ${SEQUENTIAL} sequential: ${summary(ackTimes)}`);
    console.log(`  send → live event at recipient:          ${summary(deliveryTimes)}`);
    console.log(
      `  ${SENDERS} concurrent senders × ${PER_SENDER}: ${Math.round((SENDERS * PER_SENDER) / burstSeconds)} messages/s stored and delivered; recipient's sequence gapless: ${gapless}`,
    );
    console.log(`  resume after ${MISSED} missed events: ${replayed} replayed in ${resumeSeconds.toFixed(2)} s (${Math.round(replayed / resumeSeconds)} events/s)`);
  } finally {
    await server.close();
  }
}

/** Other people's send → ack p99 alone, then while Mallory floods valid sends: the per-person limits at work. */
async function floodBench(label: string, database: 'pglite' | 'postgres'): Promise<void> {
  process.env.TEST_DATABASE = database;
  const server: TestServer = await startServer({}, { onDisk: true }); // the default limits
  try {
    const anna = await signUp(server);
    const mallory = await signUp(server);
    const malloryChat = await privateChat(server, mallory, anna);
    // Several quiet people, each sending 4 a second (well inside the default allowance of 50 per 10 s) and waiting
    // for each ack: enough samples for a p99 over a few seconds.
    const quietPeople = await Promise.all(
      Array.from({ length: QUIET_PEOPLE }, async () => {
        const person = await signUp(server);
        const chatId = await privateChat(server, person, anna);
        return { chatId, socket: await SocketProbe.open(chatSocketUrl(server, person.token)) };
      }),
    );
    const measure = async (seconds: number): Promise<number[]> => {
      const times: number[] = [];
      const until = performance.now() + seconds * 1000;
      await Promise.all(
        quietPeople.map(async ({ chatId, socket }, index) => {
          let next = performance.now() + index * (250 / QUIET_PEOPLE);
          while (performance.now() < until) {
            await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
            const clientId = randomUUID();
            const started = performance.now();
            socket.send({ type: 'send', client_id: clientId, chat_id: chatId, text: 'hello' });
            await socket.until((frames) => frames.some((frame) => frame.client_id === clientId), 30_000);
            times.push(performance.now() - started);
            next += 250;
          }
        }),
      );
      return times;
    };
    const quiet = await measure(3);

    // The flooder runs in its own process (its work must not be charged to the server, which runs in this one).
    const flooder = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./flooder.ts', import.meta.url))], {
      env: {
        ...process.env,
        FLOOD_URL: chatSocketUrl(server, mallory.token),
        FLOOD_CHAT_ID: String(malloryChat),
        FLOOD_RATE: String(FLOOD_RATE),
        FLOOD_SECONDS: String(FLOOD_SECONDS),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let report = '';
    let markStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    flooder.stdout.on('data', (chunk) => {
      report += chunk;
      if (report.includes('started')) markStarted();
    });
    const flooderDone = new Promise<void>((resolve) => flooder.once('exit', () => resolve()));
    await Promise.race([started, flooderDone]); // measure while the flood is on
    const during = await measure(FLOOD_SECONDS);
    await flooderDone;
    const flood = JSON.parse(report.trim().split('\n').at(-1) ?? '{}');
    for (const { socket } of quietPeople) socket.close();
    const p99 = (samples: number[]) => percentile([...samples].sort((a, b) => a - b), 99);
    console.log(`\n${label}: one person flooding valid sends at ${FLOOD_RATE}/s for ${FLOOD_SECONDS} s, reconnecting when cut off`);
    console.log(`  ${QUIET_PEOPLE} other people's send → ack, quiet: ${summary(quiet)}`);
    console.log(`  the same during the flood:       ${summary(during)}  (p99 ${(p99(during) / p99(quiet)).toFixed(2)}× quiet)`);
    console.log(
      `  the flooder: ${flood.sent} frames sent, ${flood.stored} stored, ${flood.refused} refused as too fast, cut off ${flood.cutOff} times, ${flood.refusedConnections} reconnections refused`,
    );
  } finally {
    await server.close();
  }
}


const postgresUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
process.env.TEST_POSTGRES_URL = postgresUrl;
// The embedded default as people run it (in a folder, every commit synced to disk), then the same with the syncs
// left out: the difference is what durability costs on this machine's disk.
await bench('pglite (in a folder, commits synced to disk: the default)', 'pglite');
await bench('pglite (in a folder, fsync off: for comparison only)', 'pglite', false);
await floodBench('pglite', 'pglite');
if (await postgresReachable(postgresUrl)) {
  await bench('postgres', 'postgres');
  await floodBench('postgres', 'postgres');
} else {
  console.log('\npostgres: skipped (nothing reachable; set DATABASE_URL)');
}
