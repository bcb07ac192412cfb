import { api } from '../api/client';
import { socketOrigin } from './socket-urls';

export { meetingSocketUrl } from './socket-urls';

/**
 * Hangs up a call the spec's way (§7): `{type: 'hang', text: chat_id}` on the chat socket. A private call ends for
 * both; in a group only I leave. Resolves once the server confirmed (`hung`), rejects on its refusal.
 */
export async function hangUpCall(chatId: number): Promise<void> {
  const token = await api.freshAccessToken();
  await new Promise<void>((resolve, reject) => {
    const socket = new WebSocket(`${socketOrigin()}/api/chat/socket?token=${encodeURIComponent(token)}`);
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error('no answer to hang-up'));
    }, 10_000);
    socket.onopen = () => socket.send(JSON.stringify({ type: 'hang', text: String(chatId) }));
    socket.onmessage = (message) => {
      let frame: { type?: string; message?: string };
      try {
        frame = JSON.parse(String(message.data));
      } catch {
        return;
      }
      if (frame.type !== 'hung' && frame.type !== 'error') return;
      clearTimeout(timer);
      socket.close();
      if (frame.type === 'hung') resolve();
      else reject(new Error(frame.message ?? 'hang-up refused'));
    };
    socket.onerror = () => {
      clearTimeout(timer);
      reject(new Error('hang-up failed'));
    };
  });
}
