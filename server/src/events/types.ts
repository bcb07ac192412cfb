/** The envelope of every live event, as the spec names it, plus the per-user sequence number. */
export interface FlowEvent {
  seq: number;
  event_type: string;
  additional_info: Record<string, unknown>;
}
