/**
 * A live signal that is not an event: someone typing. It has no seq and never enters the per-user log — a lost
 * one is fine, a late one is wrong — so it goes to the sockets open now, or nowhere.
 */
export type { FlowSignal as LiveSignal } from '@messenger/protocol';

/** The envelope of every live event, as the spec names it, plus the per-user sequence number. */
export interface FlowEvent {
  seq: number;
  event_type: string;
  additional_info: Record<string, unknown>;
  /**
   * `additional_info` already serialized, when one payload goes to many people: each socket frame is then built
   * around it instead of serializing the same message once per recipient.
   */
  infoJson?: string;
}
