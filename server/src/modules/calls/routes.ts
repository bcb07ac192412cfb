import type { App } from '../../http/types.js';
import { caller } from '../../http/types.js';
import { ChatBody, ChatQuery, RecordingBody, RecordingQuery } from './schemas.js';
import { FORWARDED_HEADER } from './meet-socket.js';
import { callNodeUnavailable } from '../../http/errors.js';

/** How long a node waits for the node holding a call's room to answer. */
const ROOM_NODE_TIMEOUT_MS = 5_000;

interface CallRow extends Record<string, unknown> {
  id: number;
  chat_id: number;
  caller_id: number;
  connected: boolean;
  status: string;
  message_id: number | null;
  duration_seconds: number | null;
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
      `SELECT k.id, k.chat_id, k.caller_id, k.connected, k.status, k.message_id, k.created_at,
              CASE WHEN k.answered_at IS NOT NULL AND k.ended_at IS NOT NULL
                   THEN floor(extract(epoch FROM k.ended_at - k.answered_at))::int END AS duration_seconds,
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
        status: row.status,
        message_id: row.message_id,
        duration_seconds: row.duration_seconds,
        created_at: new Date(row.created_at).toISOString(),
        chat_name: row.chat_name,
        chat_avatar: row.chat_avatar,
        chat_type: row.chat_type,
        direction: row.caller_id === me ? 'outgoing' : 'incoming',
      })),
    };
  });

  const calls = app.services.calls;

  app.post('/meet/call', { schema: { body: ChatBody } }, async (request) => calls.start(caller(request).id, request.body.chat_id));

  app.post('/meet/reject', { schema: { body: ChatBody } }, async (request) => calls.reject(caller(request).id, request.body.chat_id));

  app.get('/meet/get-token', { schema: { querystring: ChatQuery } }, async (request) => calls.token(caller(request).id, request.query.chat_id));

  app.get('/meet/participants', { schema: { querystring: ChatQuery } }, async (request, reply) => {
    const found = await calls.participants(caller(request).id, request.query.chat_id);
    if ('participants' in found) return found;
    // The room is in another node's memory: that node answers, asked as this same person (its own checks run
    // there again), and only once — a forwarded request that lands on a node without the room is refused.
    if (request.headers[FORWARDED_HEADER]) throw callNodeUnavailable();
    const answer = await fetch(`${found.roomNode}/api/meet/participants?chat_id=${request.query.chat_id}`, {
      headers: { authorization: request.headers.authorization ?? '', [FORWARDED_HEADER]: '1' },
      signal: AbortSignal.timeout(ROOM_NODE_TIMEOUT_MS),
    }).catch(() => null);
    if (!answer) throw callNodeUnavailable();
    reply.code(answer.status).type('application/json');
    return answer.text();
  });

  // Spec §7 names a `token` parameter; the bearer token is what authorises it here.
  app.get('/chat/call-id', { schema: { querystring: ChatQuery } }, async (request) => calls.callId(caller(request).id, request.query.chat_id));

  app.get('/chat/recording', { schema: { querystring: RecordingQuery } }, async (request) =>
    calls.recording(caller(request).id, request.query.chat_id),
  );

  app.put('/chat/recording', { schema: { body: RecordingBody } }, async (request) =>
    calls.setRecording(caller(request).id, request.body.chat_id, request.body.enabled),
  );
}
