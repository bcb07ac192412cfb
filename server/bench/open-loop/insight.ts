// What the delivery benchmark learns besides its figures: where the server's CPU goes at its ceiling (a V8 CPU
// profile, saved and summarised) and how many SQL statements and commits a message costs, counted from
// PostgreSQL's own statement log.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OpenLoop } from './driver.js';
import { MessengerTarget } from './messenger.js';

const resultsDir = fileURLToPath(new URL('../results', import.meta.url));

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

/** Where a profile's samples fall: our code, each dependency, Node itself, the garbage collector, idle. */
function place(url: string, functionName: string): string {
  if (functionName === '(garbage collector)') return 'garbage collector';
  if (functionName === '(idle)') return 'idle';
  if (functionName === '(program)' || functionName === '(root)') return 'V8 / native';
  const dependency = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dependency) return dependency[1]!;
  if (url.includes('/server/dist/') || url.includes('/server/src/')) return 'our server code';
  if (url.startsWith('node:') || url === '') return 'Node.js core';
  return 'other';
}

/**
 * The profile's samples between `from` and `to` (microseconds of CLOCK_MONOTONIC, as `process.hrtime` gives them
 * and as V8 stamps its samples), summarised: where the busy time went, and the functions that took most.
 */
export function summariseProfile(file: string, window?: { from: number; to: number }): string[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: ProfileNode[];
    startTime: number;
    samples: number[];
    timeDeltas: number[];
  };
  // Count the samples in the window per node (hitCount covers the whole run, set-up included).
  const hitsOf = new Map<number, number>();
  let time = profile.startTime;
  profile.samples.forEach((nodeId, index) => {
    time += profile.timeDeltas[index] ?? 0;
    if (window && (time < window.from || time > window.to)) return;
    hitsOf.set(nodeId, (hitsOf.get(nodeId) ?? 0) + 1);
  });
  for (const node of profile.nodes) node.hitCount = hitsOf.get(node.id) ?? 0;
  const total = profile.nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0);
  const byPlace = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (!hits) continue;
    const { url, functionName, lineNumber } = node.callFrame;
    const where = place(url, functionName);
    byPlace.set(where, (byPlace.get(where) ?? 0) + hits);
    const name = `${functionName || '(anonymous)'} ${url ? `${basename(url)}:${lineNumber + 1}` : ''}`.trim();
    byFunction.set(`${where} · ${name}`, (byFunction.get(`${where} · ${name}`) ?? 0) + hits);
  }
  const busy = total - (byPlace.get('idle') ?? 0);
  const share = (hits: number) => `${((hits / Math.max(1, busy)) * 100).toFixed(1)}%`.padStart(6);
  const lines = ['  share of busy CPU by where it runs:'];
  for (const [where, hits] of [...byPlace].filter(([where]) => where !== 'idle').sort((a, b) => b[1] - a[1]).slice(0, 12)) {
    lines.push(`    ${share(hits)}  ${where}`);
  }
  lines.push('  the functions that take most (self time):');
  for (const [name, hits] of [...byFunction].filter(([name]) => !name.startsWith('idle')).sort((a, b) => b[1] - a[1]).slice(0, 15)) {
    lines.push(`    ${share(hits)}  ${name}`);
  }
  return lines;
}

/** Runs the PostgreSQL server at `rate` with V8's profiler on, saves the profile and prints what it shows. */
export async function profileAtRate(options: {
  database?: 'postgres' | 'pglite';
  postgresUrl: string;
  port: number;
  serverCpu: number;
  rate: number;
  /** Server nodes (a cluster over NATS, PostgreSQL only): each writes its profile; one of them is summarised. */
  nodes?: number;
}): Promise<void> {
  const database = options.database ?? 'postgres';
  mkdirSync(resultsDir, { recursive: true });
  const profileDir = join(resultsDir, `cpu-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  const target = new MessengerTarget({
    database,
    postgresUrl: options.postgresUrl,
    port: options.port,
    serverCpu: options.serverCpu,
    nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profileDir],
    nodes: options.nodes ?? 1,
  });
  const microsNow = () => Number(process.hrtime.bigint() / 1000n);
  const window = { from: 0, to: 0 };
  try {
    await target.start();
    const loop = new OpenLoop(target, 2_000_000);
    await loop.step(options.rate, 0, 2); // warm-up, left out of the profile
    window.from = microsNow();
    await loop.step(options.rate, 0, 8);
    window.to = microsNow();
  } finally {
    await target.close();
  }
  const file = existsSync(profileDir) ? readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile')).sort()[0] : undefined;
  const nodes = (options.nodes ?? 1) > 1 ? `, one of ${options.nodes} nodes,` : '';
  console.log(`\nCPU profile of the server${nodes} on ${database === 'postgres' ? 'PostgreSQL' : 'PGlite'} at ${options.rate} messages/s:`);
  if (!file) {
    console.log('  (no profile was written)');
    return;
  }
  console.log(`  saved: ${join(profileDir, file)} (open it in Chrome DevTools → Performance)`);
  for (const line of summariseProfile(join(profileDir, file), window)) console.log(line);
}

/** The PostgreSQL server's log file (Debian writes the cluster's stderr there). */
function postgresLog(): string | undefined {
  const dir = '/var/log/postgresql';
  if (!existsSync(dir)) return undefined;
  return readdirSync(dir)
    .filter((name) => name.endsWith('.log'))
    .map((name) => join(dir, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

/** Sends a known number of messages with PostgreSQL logging every statement of the run's database, and counts. */
export async function countStatements(options: { postgresUrl: string; port: number; serverCpu: number }): Promise<void> {
  const log = postgresLog();
  console.log('\nSQL per message, from PostgreSQL\'s own statement log (log_statement = all for the run\'s database):');
  if (!log) {
    console.log('  (no PostgreSQL log file found under /var/log/postgresql)');
    return;
  }
  const target = new MessengerTarget({
    database: 'postgres',
    postgresUrl: options.postgresUrl,
    port: options.port,
    serverCpu: options.serverCpu,
    databaseSettings: { log_statement: 'all' },
  });
  try {
    await target.start();
    const loop = new OpenLoop(target, 1_000_000);
    for (const rate of [200, 2_000]) {
      const before = statSync(log).size;
      const result = await loop.step(rate, 0, 5);
      const added = readFileSync(log).subarray(before).toString('utf8');
      const mine = added.split('\n').filter((line) => line.includes(`@${target.databaseName} `));
      const statements = mine.filter((line) => /LOG:\s+(statement|execute [^:]*):/.test(line));
      const commits = statements.filter((line) => /:\s+COMMIT\s*$/.test(line)).length;
      const perMessage = statements.length / Math.max(1, result.delivered);
      console.log(
        `  at ${rate}/s: ${result.delivered} messages, ${statements.length} statements in ${commits} commits — ${perMessage.toFixed(2)} statements and ${(
          commits / Math.max(1, result.delivered)
        ).toFixed(3)} commits per message, ${(statements.length / Math.max(1, commits)).toFixed(1)} statements per commit`,
      );
    }
  } finally {
    await target.close();
  }
}
