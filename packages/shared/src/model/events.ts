import { MESSAGE_EVENT_TYPES, type FlowEvent, type FlowEventMap, type TypingSignalInfo } from '@messenger/protocol';

// The live events and signals are the wire contract's (packages/protocol, live.ts): one set of types for both sides.
export { MESSAGE_EVENT_TYPES };
export type { FlowEvent, FlowEventMap, FlowEventType, TypingSignalInfo } from '@messenger/protocol';

/** What a new message's event carries: the chat, the message and who sent it. */
export type MessageEventInfo = FlowEventMap['text'];

export function isMessageEvent(event: FlowEvent): event is FlowEvent<(typeof MESSAGE_EVENT_TYPES)[number]> {
  return (MESSAGE_EVENT_TYPES as readonly string[]).includes(event.event_type);
}

/** A typing signal's payload as the server sends it; anything else is ignored (checked here in production too). */
export function isTypingSignal(info: unknown): info is TypingSignalInfo {
  const candidate = info as Partial<TypingSignalInfo> | null;
  return (
    typeof candidate?.chat_id === 'number' &&
    typeof candidate.user?.id === 'number' &&
    typeof candidate.user.name === 'string' &&
    (candidate.user.username === null || typeof candidate.user.username === 'string')
  );
}
