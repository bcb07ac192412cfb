import { chatSocket } from './sockets';

export { meetingSocketUrl } from './socket-urls';

/**
 * Hangs up a call the spec's way (§7): `{type: 'hang', text: chat_id}` on this tab's chat socket (opened if it is
 * not yet). A private call ends for both; in a group only I leave. Resolves once the server confirmed (`hung`),
 * rejects on its refusal or when no answer comes. With `callId`, a repeat after that call ended ends nothing else.
 */
export function hangUpCall(chatId: number, callId?: number): Promise<void> {
  return chatSocket.hang(chatId, callId);
}
