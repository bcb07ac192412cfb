import type { FlowEvent, FlowEventMap, FlowEventType, TypingSignalInfo } from '../model/events';
import { Emitter } from './emitter';

export type ConnectionStatus = 'idle' | 'connecting' | 'online' | 'offline';

/** Everything the live connection tells the app. Remotes subscribe here; only the shell starts the connection. */
export type BusEvents = { [K in FlowEventType]: FlowEvent<K> } & {
  /** Every event, in seq order, after the typed one. */
  event: FlowEvent;
  /** The client's state may be stale (it was away too long, or the server lost its place): reload it. */
  resync: { seq: number };
  status: ConnectionStatus;
  /** Someone is typing in one of my chats (a live signal: no seq, may be lost). */
  typing: TypingSignalInfo;
};

export const eventBus = new Emitter<BusEvents>();

export type { FlowEvent, FlowEventMap, FlowEventType };
