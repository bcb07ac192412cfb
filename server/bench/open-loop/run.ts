// `npm run bench` → open-loop delivery, side by side with Prosody. Figures, not pass/fail.
//
// 200 people in 100 private pairs, each sending to their partner on a fixed schedule (R/200 a second each);
// latency = arrival at the partner − intended send time; a ramp of R with 5 s warm-up and 20 s measured per step,
// stopping at the first step with p99 > 200 ms or any message lost. The server (and PostgreSQL's processes) run
// on CPU 0, this load generator on CPU 1. Prints a table per server and the summary for docs/performance.md.
//   BENCH_QUICK=1          shorter steps (2 s + 5 s), for trying the benchmark out
//   BENCH_TARGETS=a,b      which servers: prosody, postgres, cluster (3 nodes + NATS on PostgreSQL), pglite
//                          (default: all four)
// Then group fan-out on our server: 100 groups of 10, every member sending to their group.
import { spawnSync } from 'node:child_process';
import { OpenLoop, PAIRS, type StepResult, type Target, type Topology } from './driver.js';
import { MessengerTarget } from './messenger.js';
import { ProsodyTarget, ensureProsody } from './prosody.js';
import { countStatements, profileAtRate } from './insight.js';
import { natsReachable, postgresReachable } from '../reachable.js';

const SERVER_CPU = 0;
const GENERATOR_CPU = 1;
// 3 000 and 6 000 resolve the knees that matter (Prosody's, and issue 10's target of 6 000/s on PostgreSQL).
// BENCH_RATES=1000,3000: only these steps (a probe of one rate), else the whole ramp.
const RATES = process.env.BENCH_RATES
  ? process.env.BENCH_RATES.split(',').map(Number)
  : [500, 1_000, 2_000, 3_000, 4_000, 6_000, 8_000, 12_000, 16_000, 24_000, 32_000];
const GROUPS: Topology = { users: 1_000, groupSize: 10 };
const GROUP_RATES = [100, 200, 400, 800, 1_200, 1_600, 2_400, 3_200, 4_800];
const quick = process.env.BENCH_QUICK === '1';
const WARMUP_SECONDS = quick ? 2 : 5;
const MEASURE_SECONDS = quick ? 5 : 20;
const P99_LIMIT_MS = 200;
const postgresUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const natsUrl = process.env.NATS_URL || 'nats://127.0.0.1:4222';
const CLUSTER_NODES = 3;
const targets = (process.env.BENCH_TARGETS ?? 'prosody,postgres,cluster,pglite').split(',').map((name) => name.trim());

spawnSync('taskset', ['-cp', String(GENERATOR_CPU), String(process.pid)], { stdio: 'ignore' });

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : '—');

function row(result: StepResult): string {
  return [
    String(result.rate).padStart(6),
    String(result.delivered).padStart(8),
    String(result.lost).padStart(6),
    String(result.duplicated).padStart(4),
    String(result.misrouted).padStart(4),
    ms(result.p50).padStart(8),
    ms(result.p90).padStart(8),
    ms(result.p99).padStart(8),
    ms(result.max).padStart(8),
    ms(result.cpuMicrosPerMessage).padStart(8),
    `${(result.cpuShare * 100).toFixed(0)}%`.padStart(6),
    `${(result.databaseShare * 100).toFixed(0)}%`.padStart(5),
    `${(result.generatorShare * 100).toFixed(0)}%`.padStart(6),
    `${(result.rssBytes / 2 ** 20).toFixed(0)}`.padStart(6),
  ].join(' ');
}

interface Summary {
  name: string;
  at50: StepResult | undefined;
  at200: StepResult | undefined;
  steps: StepResult[];
}

async function ramp(target: Target, topology: Topology = PAIRS, rates = RATES): Promise<Summary> {
  const loop = new OpenLoop(target, 12_000_000, topology);
  console.log(`\n${target.name}${topology.groupSize > 2 ? ` — ${topology.users / topology.groupSize} groups of ${topology.groupSize}` : ''}`);
  console.log('  rate/s delivered   lost dup  mis   p50 ms   p90 ms   p99 ms   max ms  cpu µs/msg  srv%  db% gen%  rss MB');
  const steps: StepResult[] = [];
  for (const rate of rates) {
    const result = await loop.step(rate, WARMUP_SECONDS, MEASURE_SECONDS);
    steps.push(result);
    console.log(`  ${row(result)}`);
    if (result.p99 > P99_LIMIT_MS || result.lost > 0 || result.duplicated > 0 || result.misrouted > 0) break;
  }
  const clean = (limit: number) =>
    steps.filter((step) => step.p99 <= limit && step.lost === 0 && step.duplicated === 0 && step.misrouted === 0).at(-1);
  return { name: target.name, at50: clean(50), at200: clean(P99_LIMIT_MS), steps };
}


const summaries: Summary[] = [];
let port = 19_500 + Math.floor(Math.random() * 300);
for (const name of targets) {
  let target: (Target & { start(): Promise<void> }) | null = null;
  if (name === 'prosody') {
    if (!ensureProsody()) {
      console.log('\nprosody: skipped (not installed and cannot install it here: apt-get install prosody)');
      continue;
    }
    target = new ProsodyTarget((port += 1), SERVER_CPU);
  } else if (name === 'postgres' || name === 'pglite' || name === 'cluster') {
    if (name !== 'pglite' && !(await postgresReachable(postgresUrl))) {
      console.log(`\n${name}: skipped (no PostgreSQL reachable; set DATABASE_URL)`);
      continue;
    }
    if (name === 'cluster' && !(await natsReachable(natsUrl))) {
      console.log(`\ncluster: skipped (no NATS at ${natsUrl}; set NATS_URL)`);
      continue;
    }
    // The nodes of a cluster share the server's core with PostgreSQL and NATS: the figure is the cluster path's
    // overhead (a hop through NATS for every delivery, three processes), not more capacity.
    const nodes = name === 'cluster' ? CLUSTER_NODES : 1;
    target = new MessengerTarget({ database: name === 'pglite' ? 'pglite' : 'postgres', postgresUrl, port: (port += 1), serverCpu: SERVER_CPU, nodes, natsUrl });
    port += nodes;
  } else throw new Error(`unknown target ${name}`);
  try {
    await target.start();
    summaries.push(await ramp(target));
  } finally {
    await target.close();
  }
}

console.log('\nSummary (highest offered rate with nothing lost, duplicated or misrouted, by p99 limit):');
console.log('| server | ≤ 50 ms p99 | ≤ 200 ms p99 | CPU µs/msg there | server RSS |');
console.log('|---|---|---|---|---|');
const prosody = summaries.find((summary) => summary.name.startsWith('Prosody'));
for (const summary of summaries) {
  const ratio = prosody?.at50 && summary.at50 && summary !== prosody ? ` (${(summary.at50.rate / prosody.at50.rate).toFixed(1)}× Prosody)` : '';
  const at = summary.at50 ?? summary.at200;
  console.log(
    `| ${summary.name} | ${summary.at50?.rate ?? '—'}/s${ratio} | ${summary.at200?.rate ?? '—'}/s | ${at ? ms(at.cpuMicrosPerMessage) : '—'} | ${
      at ? `${(at.rssBytes / 2 ** 20).toFixed(0)} MB` : '—'
    } |`,
  );
}

// Group fan-out: each message goes to 9 others.
if (targets.includes('postgres') && (await postgresReachable(postgresUrl)) && process.env.BENCH_GROUPS !== '0') {
  const target = new MessengerTarget({ database: 'postgres', postgresUrl, port: (port += 1), serverCpu: SERVER_CPU, topology: GROUPS });
  try {
    await target.start();
    const groups = await ramp(target, GROUPS, GROUP_RATES);
    const best = groups.at200;
    console.log(
      best
        ? `  → ${best.rate} messages/s to groups of ${GROUPS.groupSize}: ${Math.round(best.delivered / MEASURE_SECONDS)} deliveries/s at p99 ${ms(best.p99)} ms`
        : '  → no step stayed within p99 200 ms',
    );
  } finally {
    await target.close();
  }
}

// Where the time goes at the ceiling, and how many statements a message costs, on PostgreSQL.
const postgresSummary = summaries.find((summary) => summary.name === 'messenger on PostgreSQL');
if (postgresSummary && process.env.BENCH_INSIGHT !== '0') {
  const knee = postgresSummary.at200?.rate ?? RATES[0]!;
  await profileAtRate({ postgresUrl, port: (port += 1), serverCpu: SERVER_CPU, rate: knee });
  await countStatements({ postgresUrl, port: (port += 1), serverCpu: SERVER_CPU });
}
// And in one of three nodes, where the cluster path's cost shows (docs/performance.md, "Several nodes").
const clusterSummary = summaries.find((summary) => summary.name.includes('nodes + NATS'));
if (clusterSummary && process.env.BENCH_INSIGHT !== '0') {
  const rate = clusterSummary.at200?.rate ?? RATES[0]!;
  await profileAtRate({ postgresUrl, port: (port += 1), serverCpu: SERVER_CPU, rate, nodes: CLUSTER_NODES });
  port += CLUSTER_NODES;
}
// And on the embedded PGlite, where the database runs inside the server process.
const pgliteSummary = summaries.find((summary) => summary.name.includes('PGlite'));
if (pgliteSummary && process.env.BENCH_INSIGHT !== '0') {
  await profileAtRate({ database: 'pglite', postgresUrl, port: (port += 1), serverCpu: SERVER_CPU, rate: pgliteSummary.at200?.rate ?? RATES[0]! });
}
