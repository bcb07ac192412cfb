import type { ChatMessage } from '../model/types';
import type { OutgoingMessage } from '../events/chat-socket';
import { localSettings } from './local';

/** A message written but not yet acknowledged: what it looks like, and the frame that sends it. */
export interface OutboxEntry {
  message: ChatMessage;
  frame: OutgoingMessage;
  /** Its frame went out on a socket at least once (in this page or before a reload): the server may have it. */
  written?: true;
}

const key = (userId: number) => `outbox.${userId}`;

/**
 * Unsent messages survive a reload (spec of issue 3: "queued, kept across a reload"), per signed-in person,
 * in this browser's local storage; they are sent in order once the connection returns.
 */
export const outbox = {
  load(userId: number): OutboxEntry[] {
    try {
      const entries = JSON.parse(localSettings.get(key(userId)) ?? '[]') as OutboxEntry[];
      return Array.isArray(entries) ? entries : [];
    } catch {
      return [];
    }
  },
  put(userId: number, entry: OutboxEntry): void {
    const entries = this.load(userId).filter((known) => known.frame.client_id !== entry.frame.client_id);
    localSettings.set(key(userId), JSON.stringify([...entries, entry]));
  },
  /** Notes that an entry's frame went out, keeping its place in the order. */
  markWritten(userId: number, clientId: string): void {
    const entries = this.load(userId);
    const entry = entries.find((known) => known.frame.client_id === clientId);
    if (!entry || entry.written) return;
    entry.written = true;
    localSettings.set(key(userId), JSON.stringify(entries));
  },
  remove(userId: number, clientId: string): void {
    const entries = this.load(userId);
    const kept = entries.filter((entry) => entry.frame.client_id !== clientId);
    if (kept.length !== entries.length) localSettings.set(key(userId), JSON.stringify(kept));
  },
};
