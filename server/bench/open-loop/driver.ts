// The open-loop load of the delivery benchmark, the same for every server it measures. USERS people in pairs; each
// sends to their partner at R/USERS messages a second on a fixed schedule, whatever the server answers (open loop:
// a slow server is charged for its slowness, not given time to breathe). A message's latency is from its
// *intended* send time to its arrival at the partner. Steps of R ramp up until p99 passes the limit or a message is
// lost; each step reports latency, losses, duplicates, misroutes and the server's CPU per message.
import { readFileSync } from 'node:fs';

/**
 * Who talks to whom: `users` people in groups of `groupSize` (2: private pairs), person `n` in group
 * `floor(n / groupSize)`; each message of a person goes to every other member of their group.
 */
export interface Topology {
  users: number;
  groupSize: number;
}

export const PAIRS: Topology = { users: 200, groupSize: 2 };

/** A server under test: its people connected and ready; `deliver` is called for every message a person receives. */
export interface Target {
  readonly name: string;
  /** Processes whose CPU time is the server's (the server, and its database when that is a process of its own). */
  serverPids(): number[];
  /** Of those, the database's (PostgreSQL's processes), to show how the server's CPU splits. */
  databasePids?(): number[];
  /** Resident memory of the server process, bytes. */
  serverRss(): number;
  /** Person `from` sends message `id` to their group (their partner, in pairs). */
  send(from: number, id: number): void;
  onDeliver(deliver: (to: number, id: number) => void): void;
  close(): Promise<void>;
}

export interface StepResult {
  rate: number;
  sent: number;
  /** Deliveries (a message to a group of 10 is 9). */
  delivered: number;
  lost: number;
  duplicated: number;
  misrouted: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Server CPU (all its processes) per message sent, microseconds. */
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
    // After "pid (comm) ": state is field 0, utime 11, stime 12, and the children it has reaped 13 and 14: a
    // PostgreSQL backend that exits mid-step (a node's pool letting an idle connection go) moves its time into
    // the postmaster's, so the sum over the postmaster and its live children never goes down.
    return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS;
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
  /** Per message, which members of the group have it (bit = position in the group). */
  private readonly arrivals: Uint16Array;
  private nextId = 0;
  private misrouted = 0;
  private duplicated = 0;
  /** Latencies of the measured messages' deliveries, as they arrive. */
  private latencies: number[] = [];
  private measured: [number, number] = [0, 0];

  constructor(
    private readonly target: Target,
    capacity: number,
    private readonly topology: Topology = PAIRS,
  ) {
    if (topology.groupSize > 16) throw new Error('groups of at most 16');
    this.intended = new Float64Array(capacity);
    this.arrivals = new Uint16Array(capacity);
    target.onDeliver((to, id) => {
      if (id < 0 || id >= this.nextId) return;
      const from = id % topology.users;
      const group = Math.floor(from / topology.groupSize);
      if (to === from || Math.floor(to / topology.groupSize) !== group) {
        this.misrouted += 1;
        return;
      }
      const bit = 1 << (to % topology.groupSize);
      if (this.arrivals[id]! & bit) {
        if (id >= this.measured[0] && id < this.measured[1]) this.duplicated += 1;
        return;
      }
      this.arrivals[id]! |= bit;
      if (id >= this.measured[0] && id < this.measured[1]) this.latencies.push(performance.now() - this.intended[id]!);
    });
  }

  /** Sends at `rate` for `warmupSeconds + measureSeconds`; measures the messages intended after the warm-up. */
  async step(rate: number, warmupSeconds: number, measureSeconds: number, graceMs = 5_000): Promise<StepResult> {
    const { users, groupSize } = this.topology;
    const first = this.nextId;
    const count = Math.floor(rate * (warmupSeconds + measureSeconds));
    if (first + count > this.intended.length) throw new Error('the benchmark ran out of message slots');
    const measuredFrom = first + Math.floor(rate * warmupSeconds);
    const end = first + count;
    this.measured = [measuredFrom, end];
    this.latencies = [];
    const misroutedBefore = this.misrouted;
    const duplicatedBefore = this.duplicated;
    const start = performance.now() + 20;
    let cpuAtMeasure = 0;
    let databaseAtMeasure = 0;
    let generatorAtMeasure = 0;
    let measureStartedAt = 0;
    let sent = 0;
    this.nextId = end;
    await new Promise<void>((resolve) => {
      const tick = () => {
        const now = performance.now();
        // Every message whose intended time (start + n / rate) has come; not one interval later.
        const due = Math.min(count, Math.max(0, Math.floor(((now - start) / 1000) * rate) + 1));
        for (; sent < due; sent += 1) {
          const id = first + sent;
          if (id === measuredFrom) {
            cpuAtMeasure = this.serverCpu();
            databaseAtMeasure = this.databaseCpu();
            const usage = process.cpuUsage();
            generatorAtMeasure = usage.user + usage.system;
            measureStartedAt = now;
          }
          this.intended[id] = start + (sent * 1000) / rate;
          this.target.send(id % users, id);
        }
        if (sent < count) setTimeout(tick, 1);
        else resolve();
      };
      setTimeout(tick, Math.max(0, start - performance.now()));
    });
    const sendEndedAt = performance.now();
    const cpuAtEnd = this.serverCpu();
    const databaseAtEnd = this.databaseCpu();
    const usage = process.cpuUsage();
    const generatorAtEnd = usage.user + usage.system;
    const rss = this.target.serverRss();
    // Wait for the stragglers (bounded): whatever has not arrived by then is lost.
    const everyone = (1 << groupSize) - 1;
    const expected = (id: number) => everyone & ~(1 << (id % users) % groupSize);
    const allIn = () => {
      for (let id = measuredFrom; id < end; id += 1) if (this.arrivals[id] !== expected(id)) return false;
      return true;
    };
    const deadline = performance.now() + graceMs;
    while (!allIn() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    this.measured = [0, 0];

    let lost = 0;
    for (let id = measuredFrom; id < end; id += 1) {
      const missing = expected(id) & ~this.arrivals[id]!;
      for (let bits = missing; bits; bits &= bits - 1) lost += 1;
    }
    const sorted = Float64Array.from(this.latencies).sort();
    const measuredSeconds = (sendEndedAt - measureStartedAt) / 1000;
    const messages = end - measuredFrom;
    return {
      rate,
      sent: messages,
      delivered: sorted.length,
      lost,
      duplicated: this.duplicated - duplicatedBefore,
      misrouted: this.misrouted - misroutedBefore,
      p50: percentile(sorted, 50),
      p90: percentile(sorted, 90),
      p99: percentile(sorted, 99),
      max: sorted.length ? sorted[sorted.length - 1]! : NaN,
      cpuMicrosPerMessage: messages ? ((cpuAtEnd - cpuAtMeasure) * 1e6) / messages : NaN,
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
