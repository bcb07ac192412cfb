import type { FlowEvent, LiveSignal } from './types.js';

export type EventListener = (event: FlowEvent) => void;

/** The doorbell between nodes of a cluster (cluster/nats-link.ts); absent on a single node. */
export interface RemoteDoorbell {
  /** Rings the person's sockets on the other nodes. */
  ring(userId: number, event: FlowEvent): void;
  /** Passes a live signal (no seq, not logged) to the person's sockets on the other nodes. */
  signal(userId: number, signal: LiveSignal): void;
  /**
   * This node now holds a socket of the person: hear the rings meant for them. Settles once the other nodes'
   * rings do reach this node (NATS has the subscription), or after a bounded wait while the link is down.
   */
  watch(userId: number): Promise<void>;
  /** This node holds none of their sockets any more. */
  unwatch(userId: number): void;
}

interface Subscriber {
  listener: EventListener;
  /** Rings may have been lost (the link between nodes was down): read what the log holds past what was sent. */
  catchUp?: () => Promise<void>;
  /** Live signals (someone typing): sent as they come, or dropped while the socket is not ready for them. */
  onSignal?: (signal: LiveSignal) => void;
}

/** Sockets catching up at once after the link between nodes came back: the database reads them a few at a time. */
const CATCH_UP_CONCURRENCY = 8;

/**
 * The doorbell: after a transaction commits, its events ring the sockets of their users — on this node directly,
 * on the others through the remote doorbell when there is a cluster. It may lose nothing that matters: the
 * database log is the truth and a socket fills any gap from it, so an at-most-once pub/sub between nodes keeps
 * the guarantee. After the link between nodes comes back, every socket here catches up from the log, so even a
 * lost last ring (no later event to reveal the gap) is delivered.
 */
export class EventBus {
  private readonly subscribers = new Map<number, Set<Subscriber>>();
  private remote: RemoteDoorbell | null = null;

  /** Joins the cluster: rings go to the other nodes too, and this node hears theirs for the people it serves. */
  connectRemote(remote: RemoteDoorbell): void {
    this.remote = remote;
    for (const userId of this.subscribers.keys()) void remote.watch(userId);
  }

  subscribe(userId: number, listener: EventListener, catchUp?: () => Promise<void>, onSignal?: (signal: LiveSignal) => void): () => void {
    let set = this.subscribers.get(userId);
    if (!set) {
      set = new Set();
      this.subscribers.set(userId, set);
      void this.remote?.watch(userId);
    }
    const subscriber: Subscriber = { listener, catchUp, onSignal };
    set.add(subscriber);
    return () => {
      set.delete(subscriber);
      if (set.size === 0 && this.subscribers.get(userId) === set) {
        this.subscribers.delete(userId);
        this.remote?.unwatch(userId);
      }
    };
  }

  /**
   * Settles once rings for this person from the other nodes reach this node (at once on a single node). A socket
   * reads the log only after it: an event committed elsewhere between that read and the subscription reaching NATS
   * would otherwise ring nobody here, and wait for the next event to reveal the gap.
   */
  heard(userId: number): Promise<void> {
    return this.remote && this.subscribers.has(userId) ? this.remote.watch(userId) : Promise.resolve();
  }

  /** An event committed on this node: its person's sockets here, and on the other nodes. */
  publish(userId: number, event: FlowEvent): void {
    this.deliverHere(userId, event);
    this.remote?.ring(userId, event);
  }

  /** An event for the sockets of this node only (a ring from another node). */
  deliverHere(userId: number, event: FlowEvent): void {
    for (const subscriber of this.subscribers.get(userId) ?? []) subscriber.listener(event);
  }

  /** A live signal for the person's sockets, here and on the other nodes; at most once, never logged. */
  signal(userId: number, signal: LiveSignal): void {
    this.signalHere(userId, signal);
    this.remote?.signal(userId, signal);
  }

  /** A live signal for the sockets of this node only (from another node). */
  signalHere(userId: number, signal: LiveSignal): void {
    for (const subscriber of this.subscribers.get(userId) ?? []) subscriber.onSignal?.(signal);
  }

  /**
   * The link between nodes was down: every socket here reads what it may have missed from the log — a few at a
   * time, so that tens of thousands of sockets do not hit the database at once.
   */
  async catchUpAll(): Promise<void> {
    // Asked again while running (several nodes back at once after NATS restarted): one more pass after this one.
    if (this.catchingUp) {
      this.catchUpAgain = true;
      return this.catchingUp;
    }
    this.catchingUp = (async () => {
      do {
        this.catchUpAgain = false;
        await this.catchUpOnce();
      } while (this.catchUpAgain);
    })().finally(() => {
      this.catchingUp = null;
    });
    return this.catchingUp;
  }

  private catchingUp: Promise<void> | null = null;
  private catchUpAgain = false;

  private async catchUpOnce(): Promise<void> {
    const pending = [...this.subscribers.values()].flatMap((set) => [...set].map((subscriber) => subscriber.catchUp).filter((run) => run !== undefined));
    const worker = async () => {
      for (let run = pending.shift(); run; run = pending.shift()) await run().catch(() => undefined);
    };
    await Promise.all(Array.from({ length: CATCH_UP_CONCURRENCY }, worker));
  }

  connectionCount(userId: number): number {
    return this.subscribers.get(userId)?.size ?? 0;
  }
}
