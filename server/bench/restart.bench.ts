// A server restart under load: 200 people in pairs sending at a steady rate, the server killed with SIGKILL and
// started again on the same data while they keep sending; their clients reconnect, re-send what was not
// acknowledged and resume their event logs from the last seq. Reports how long until the p99 latency is back to
// its steady value, and that nothing was lost or delivered twice; when the first socket and the last of everybody's
// chat and flow sockets were open again, and the p99 of each 250 ms of sends, delivered and acknowledged.
// Figures, not pass/fail.
// RESTART_NODE_ARGS passes flags to the server's node (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile the start).
import { spawnSync } from 'node:child_process';
import { PAIRS } from './open-loop/driver.js';
import { MessengerTarget, type SocketKind } from './open-loop/messenger.js';
import { postgresReachable } from './reachable.js';

const RATE = Number(process.env.RESTART_RATE ?? 1_000);
const SECONDS = 20;
const KILL_AT = 8;
const BUCKET_MS = 250;
const postgresUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

// The server runs on CPU 0 (MessengerTarget), the people's clients on CPU 1, every thread of them, as in the
// open-loop benchmark: left to float, the clients' reconnect storm shared the server's core during its start.
const SERVER_CPU = 0;
if (spawnSync('taskset', ['-a', '-cp', '1', String(process.pid)], { stdio: 'ignore' }).status !== 0) {
  console.warn('taskset failed: the clients are not pinned to CPU 1 and may share the server’s core');
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;

async function bench(database: 'pglite' | 'postgres', port: number): Promise<void> {
  const target = new MessengerTarget({ database, postgresUrl, port, serverCpu: SERVER_CPU, nodeArgs: process.env.RESTART_NODE_ARGS?.split(/\s+/).filter(Boolean) });
  const total = RATE * SECONDS;
  const intended = new Float64Array(total);
  const arrived = new Float64Array(total);
  const arrivals = new Uint8Array(total);
  const acked = new Float64Array(total);
  let duplicates = 0;
  let killedAt = 0;
  let firstOpenAt = 0;
  // When each person's chat and flow socket first opened again after the kill (a socket can reopen more than once).
  const backAt: Record<SocketKind, Map<number, number>> = { chat: new Map(), flow: new Map() };
  let reopenings = 0;
  target.onAck((id) => {
    if (id >= 0 && id < total && !acked[id]) acked[id] = performance.now();
  });
  // The first socket the restarted server opens says when it serves again (its health check can answer later: on
  // PGlite it waits behind the crowd's work on the one database connection); the last, when everybody is back.
  target.onSocketOpen((person: number, kind: SocketKind) => {
    if (!killedAt) return;
    const now = performance.now();
    firstOpenAt ||= now;
    reopenings += 1;
    if (!backAt[kind].has(person)) backAt[kind].set(person, now);
  });
  target.onDeliver((to, id) => {
    if (id < 0 || id >= total || to !== (id % PAIRS.users ^ 1)) return;
    if (arrivals[id]! > 0) duplicates += 1;
    else arrived[id] = performance.now();
    arrivals[id]! += 1;
  });
  try {
    await target.start();
    const start = performance.now() + 50;
    let upAt = 0;
    let sent = 0;
    await new Promise<void>((resolve) => {
      const tick = () => {
        const now = performance.now();
        // Every message whose intended time (start + n / rate) has come; not one interval later.
        const due = Math.min(total, Math.max(0, Math.floor(((now - start) / 1000) * RATE) + 1));
        for (; sent < due; sent += 1) {
          intended[sent] = start + (sent * 1000) / RATE;
          target.send(sent % PAIRS.users, sent);
        }
        if (!killedAt && now - start >= KILL_AT * 1000) {
          killedAt = now;
          void target.restart().then(() => (upAt = performance.now()));
        }
        if (sent < total) setTimeout(tick, 1);
        else resolve();
      };
      setTimeout(tick, 50);
    });
    // Everything must arrive within 30 s of the server being back (not of the last send: an embedded database's
    // recovery can take longer than the rest of the run), or it counts as lost.
    while (!upAt) await new Promise((resolve) => setTimeout(resolve, 50));
    const deadline = Math.max(performance.now(), upAt) + 30_000;
    while (arrivals.some((count) => count === 0) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));

    const steady: number[] = [];
    const buckets = new Map<number, number[]>();
    const ackBuckets = new Map<number, number[]>();
    let lost = 0;
    for (let id = 0; id < total; id += 1) {
      if (arrivals[id] === 0) {
        lost += 1;
        continue;
      }
      const latency = arrived[id]! - intended[id]!;
      const since = intended[id]! - start;
      if (since >= 2_000 && since < KILL_AT * 1000) steady.push(latency);
      if (intended[id]! >= killedAt) {
        const bucket = Math.floor((intended[id]! - killedAt) / BUCKET_MS);
        if (!buckets.has(bucket)) buckets.set(bucket, []);
        buckets.get(bucket)!.push(latency);
      }
    }
    // Acknowledged, whether delivered or not.
    for (let id = 0; id < total; id += 1) {
      if (!acked[id] || intended[id]! < killedAt) continue;
      const bucket = Math.floor((intended[id]! - killedAt) / BUCKET_MS);
      if (!ackBuckets.has(bucket)) ackBuckets.set(bucket, []);
      ackBuckets.get(bucket)!.push(acked[id]! - intended[id]!);
    }
    steady.sort((a, b) => a - b);
    const steadyP99 = percentile(steady, 0.99);
    const limit = Math.max(2 * steadyP99, 50);
    // Back to steady: the first moment after which every bucket's p99 stays within the limit.
    const ordered = [...buckets.keys()].sort((a, b) => a - b);
    let recovered = ordered.length;
    for (let index = ordered.length - 1; index >= 0; index -= 1) {
      const samples = buckets.get(ordered[index]!)!.sort((a, b) => a - b);
      if (percentile(samples, 0.99) > limit) break;
      recovered = index;
    }
    const p99Of = (samples: number[] | undefined) => (samples ? Math.round(percentile([...samples].sort((a, b) => a - b), 0.99)) : '-');
    const curve = ordered.map((bucket) => p99Of(buckets.get(bucket)));
    const ackCurve = ordered.map((bucket) => p99Of(ackBuckets.get(bucket)));
    const recoveredAfter = recovered < ordered.length ? `${((ordered[recovered]! * BUCKET_MS) / 1000).toFixed(2)} s after the kill and later` : `never within the run (its last ${BUCKET_MS} ms were over)`;
    console.log(`\n${target.name}: ${RATE} messages/s, server killed (SIGKILL) at ${KILL_AT} s and started again`);
    const afterKill = (at: number) => (at ? `${((at - killedAt) / 1000).toFixed(2)} s` : 'never');
    console.log(
      `  steady p99 before: ${steadyP99.toFixed(1)} ms; after the kill the first socket opened again at ${afterKill(firstOpenAt)}, /api/health answered at ${afterKill(upAt)}`,
    );
    const lastBack = (kind: SocketKind) => Math.max(0, ...backAt[kind].values());
    console.log(
      `  open again: ${backAt.chat.size} chat sockets, the last at ${afterKill(lastBack('chat'))}; ${backAt.flow.size} flow sockets, the last at ${afterKill(lastBack('flow'))} (${reopenings} openings in all)`,
    );
    console.log(
      `  p99 back within ${limit.toFixed(0)} ms (2× steady, at least 50 ms) for messages sent ${recoveredAfter}`,
    );
    const shown = Number(process.env.RESTART_CURVE ?? 40);
    console.log(`  p99 (ms) of the messages sent in each ${BUCKET_MS} ms after the kill, delivered: ${curve.slice(0, shown).join(' ')}`);
    console.log(`  … and acknowledged to their senders: ${ackCurve.slice(0, shown).join(' ')}`);
    console.log(
      `  ${total} messages: ${lost} lost, ${duplicates} delivered twice, ${target.unacknowledged()} never acknowledged; ${target.resyncs()} resyncs`,
    );
    if (lost > 0 && process.env.RESTART_DEBUG) {
      const missing = [...Array(total).keys()].filter((id) => arrivals[id] === 0);
      console.log('  lost, ms after the kill:', missing.slice(0, 30).map((id) => Math.round(intended[id]! - killedAt)).join(' '));
      console.log('  lost ids:', missing.slice(0, 30).join(' '));
      const stored = await Promise.all(missing.slice(0, 10).map((id) => target.stored(id % PAIRS.users, `b:${id}`)));
      console.log('  stored on the server (first 10):', stored.join(' '));
      const recipient = (missing[0]! % PAIRS.users) ^ 1;
      console.log(`  killed at ${Math.round(killedAt)}; recipient ${recipient}'s flow around it:`);
      for (const line of target.trace(recipient)) {
        const at = Number(line.split(' ')[0]);
        if (at > killedAt - 1500 && at < killedAt + 8000) console.log(`    ${line}`);
      }
    }
  } finally {
    await target.close();
  }
}


const port = 19_400 + Math.floor(Math.random() * 90);
if (process.env.RESTART_TARGETS !== 'pglite' && (await postgresReachable(postgresUrl))) await bench('postgres', port);
if (process.env.RESTART_TARGETS !== 'postgres') await bench('pglite', port + 1);
