import type { FlowEvent } from './types.js';

export type EventListener = (event: FlowEvent) => void;

/**
 * In-process doorbell: after a transaction commits, its events ring the sockets of their users.
 * It may lose nothing that matters — the database log is the truth and a socket fills any gap from it —
 * so a cross-node pub/sub (PostgreSQL NOTIFY, Redis, NATS) can replace it without changing the guarantee.
 */
export class EventBus {
  private readonly listeners = new Map<number, Set<EventListener>>();

  subscribe(userId: number, listener: EventListener): () => void {
    let set = this.listeners.get(userId);
    if (!set) {
      set = new Set();
      this.listeners.set(userId, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(userId);
    };
  }

  publish(userId: number, event: FlowEvent): void {
    for (const listener of this.listeners.get(userId) ?? []) listener(event);
  }

  connectionCount(userId: number): number {
    return this.listeners.get(userId)?.size ?? 0;
  }
}
