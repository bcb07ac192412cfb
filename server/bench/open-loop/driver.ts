// The open-loop load of the delivery benchmark, the same for every server it measures. USERS people in pairs; each
// sends to their partner at R/USERS messages a second on a fixed schedule, whatever the server answers (open loop:
// a slow server is charged for its slowness, not given time to breathe). A message's latency is from its
// *intended* send time to its arrival at the partner. Steps of R ramp up until p99 passes the limit or a message is
// lost; each step reports latency, losses, duplicates, misroutes and the server's CPU per message.
import { readFileSync } from 'node:fs';

export const USERS = Number(process.env.BENCH_USERS ?? 200);

/** A server under test: its people connected and ready; `deliver` is called for every message a person receives. */
export interface Target {
  readonly name: string;
  /** Processes whose CPU time is the server's (the server, and its database when that is a process of its own). */
  serverPids(): number[];
  /** Of those, the database's (PostgreSQL's processes), to show how the server's CPU splits. */
  databasePids?(): number[];
  /** Resident memory of the server process, bytes. */
  serverRss(): number;
  /** Person `from` sends message `id` to their partner (`from ^ 1`). */
  send(from: number, id: number): void;
  onDeliver(deliver: (to: number, id: number) => void): void;
  close(): Promise<void>;
}

export interface StepResult {
  rate: number;
  sent: number;
  delivered: number;
  lost: number;
  duplicated: number;
  misrouted: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Server CPU (all its processes) per delivered message, microseconds. */
  cpuMicrosPerMessage: number;
  /** Share of one core the server used during the measured window. */
  cpuShare: number;
  /** Of that, the database's share (PostgreSQL's processes). */
  databaseShare: number;
  /** Share of one core this load generator used (it must stay well below 1 for the figures to hold). */
  generatorShare: number;
  rssBytes: number;
}

const CLOCK_TICKS = 100; // USER_HZ on Linux

/** CPU seconds (user + system) used so far by a process and its finished children. */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // After "pid (comm) ": state is field 0, utime 11, stime 12.
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

export function rssBytes(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

const percentile = (sorted: Float64Array, p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Drives one target through the ramp. */
export class OpenLoop {
  private readonly intended: Float64Array;
  private readonly arrived: Float64Array;
  private readonly arrivals: Uint8Array;
  private nextId = 0;
  private misrouted = 0;

  constructor(
    private readonly target: Target,
    capacity: number,
  ) {
    this.intended = new Float64Array(capacity);
    this.arrived = new Float64Array(capacity);
    this.arrivals = new Uint8Array(capacity);
    target.onDeliver((to, id) => {
      if (id < 0 || id >= this.nextId) return;
      if (to !== (id % USERS ^ 1)) this.misrouted += 1;
      if (this.arrivals[id]! < 255) this.arrivals[id]! += 1;
      if (this.arrivals[id] === 1) this.arrived[id] = performance.now();
    });
  }

  /** Sends at `rate` for `warmupSeconds + measureSeconds`; measures the messages intended after the warm-up. */
  async step(rate: number, warmupSeconds: number, measureSeconds: number, graceMs = 5_000): Promise<StepResult> {
    const first = this.nextId;
    const count = Math.floor(rate * (warmupSeconds + measureSeconds));
    if (first + count > this.intended.length) throw new Error('the benchmark ran out of message slots');
    const measuredFrom = first + Math.floor(rate * warmupSeconds);
    const start = performance.now() + 20;
    const misroutedBefore = this.misrouted;
    let cpuAtMeasure = 0;
    let databaseAtMeasure = 0;
    let generatorAtMeasure = 0;
    let measureStartedAt = 0;
    let sent = 0;
    this.nextId = first + count;
    await new Promise<void>((resolve) => {
      const tick = () => {
        const now = performance.now();
        const due = Math.min(count, Math.floor(((now - start) / 1000) * rate));
        for (; sent < due; sent += 1) {
          const id = first + sent;
          if (id === measuredFrom) {
            cpuAtMeasure = this.serverCpu();
            databaseAtMeasure = this.databaseCpu();
            generatorAtMeasure = process.cpuUsage().user + process.cpuUsage().system;
            measureStartedAt = now;
          }
          this.intended[id] = start + (sent * 1000) / rate;
          this.target.send(id % USERS, id);
        }
        if (sent < count) setTimeout(tick, 1);
        else resolve();
      };
      setTimeout(tick, Math.max(0, start - performance.now()));
    });
    const sendEndedAt = performance.now();
    const cpuAtEnd = this.serverCpu();
    const databaseAtEnd = this.databaseCpu();
    const generatorUsage = process.cpuUsage();
    const generatorAtEnd = generatorUsage.user + generatorUsage.system;
    const rss = this.target.serverRss();
    // Wait for the stragglers (bounded): whatever has not arrived by then is lost.
    const deadline = performance.now() + graceMs;
    const allIn = () => {
      for (let id = measuredFrom; id < first + count; id += 1) if (this.arrivals[id] === 0) return false;
      return true;
    };
    while (!allIn() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));

    const latencies: number[] = [];
    let lost = 0;
    let duplicated = 0;
    for (let id = measuredFrom; id < first + count; id += 1) {
      if (this.arrivals[id] === 0) lost += 1;
      else {
        if (this.arrivals[id]! > 1) duplicated += 1;
        latencies.push(this.arrived[id]! - this.intended[id]!);
      }
    }
    const sorted = Float64Array.from(latencies).sort();
    const measuredSeconds = (sendEndedAt - measureStartedAt) / 1000;
    const delivered = latencies.length;
    return {
      rate,
      sent: first + count - measuredFrom,
      delivered,
      lost,
      duplicated,
      misrouted: this.misrouted - misroutedBefore,
      p50: percentile(sorted, 50),
      p90: percentile(sorted, 90),
      p99: percentile(sorted, 99),
      max: sorted.length ? sorted[sorted.length - 1]! : NaN,
      cpuMicrosPerMessage: delivered ? ((cpuAtEnd - cpuAtMeasure) * 1e6) / delivered : NaN,
      cpuShare: measuredSeconds > 0 ? (cpuAtEnd - cpuAtMeasure) / measuredSeconds : NaN,
      databaseShare: measuredSeconds > 0 ? (databaseAtEnd - databaseAtMeasure) / measuredSeconds : NaN,
      generatorShare: measuredSeconds > 0 ? (generatorAtEnd - generatorAtMeasure) / 1e6 / measuredSeconds : NaN,
      rssBytes: rss,
    };
  }

  private serverCpu(): number {
    return this.target.serverPids().reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  }

  private databaseCpu(): number {
    return (this.target.databasePids?.() ?? []).reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  }
}
