import Value from 'typebox/value';
import { flowEvents, mismatches } from '@messenger/protocol';

/**
 * Test runs only (`CONTRACT_CHECKS`): an event's payload must be what the wire contract says of its type, or the
 * change that logs it fails (a 500 the test sees) instead of a client meeting it later.
 */
export function checkEventPayload(eventType: string, payload: unknown): void {
  const schema = Object.hasOwn(flowEvents, eventType) ? flowEvents[eventType as keyof typeof flowEvents] : undefined;
  if (!schema) throw new Error(`an event the contract does not know: ${eventType}`);
  if (Value.Check(schema, payload)) return;
  throw new Error(`a ${eventType} event outside the contract: ${mismatches(schema, payload)}`);
}
