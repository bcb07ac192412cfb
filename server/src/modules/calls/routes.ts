import type { App } from '../../http/types.js';
import { caller } from '../../http/types.js';

interface CallRow extends Record<string, unknown> {
  id: number;
  chat_id: number;
  caller_id: number;
  connected: boolean;
  created_at: Date | string;
  chat_name: string;
  chat_avatar: string | null;
  chat_type: 'private' | 'group';
}

const HISTORY_LIMIT = 100;

/** Call history of the chats the caller is in, newest first (spec §3 Call). */
export async function callsRoutes(app: App): Promise<void> {
  app.get('/chat/call/history', async (request) => {
    const me = caller(request).id;
    const rows = await app.services.db.query<CallRow>(
      `SELECT k.id, k.chat_id, k.caller_id, k.connected, k.created_at,
              c.name AS chat_name, c.avatar AS chat_avatar, c.chat_type
         FROM calls k
         JOIN chat_members m ON m.chat_id = k.chat_id AND m.user_id = $1
         JOIN chats c ON c.id = k.chat_id
        ORDER BY k.created_at DESC, k.id DESC
        LIMIT $2`,
      [me, HISTORY_LIMIT],
    );
    return {
      calls: rows.map((row) => ({
        id: row.id,
        chat_id: row.chat_id,
        caller_id: row.caller_id,
        connected: row.connected,
        created_at: new Date(row.created_at).toISOString(),
        chat_name: row.chat_name,
        chat_avatar: row.chat_avatar,
        chat_type: row.chat_type,
        direction: row.caller_id === me ? 'outgoing' : 'incoming',
      })),
    };
  });
}
