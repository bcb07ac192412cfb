import type { FastifyReply } from 'fastify';
import type { App } from '../../http/types.js';
import { contractSchema } from '../../http/contract.js';
import { caller } from '../../http/types.js';
import type { CallStatus, ChatType } from '@messenger/protocol';
import { callRoutes as routes } from './schemas.js';
import { FORWARDED_HEADER } from './meet-socket.js';
import { callNodeUnavailable } from '../../http/errors.js';

/** How long a node waits for the node holding a call's room to answer. */
const ROOM_NODE_TIMEOUT_MS = 5_000;

interface CallRow extends Record<string, unknown> {
  id: number;
  chat_id: number;
  caller_id: number;
  connected: boolean;
  status: CallStatus;
  message_id: number | null;
  duration_seconds: number | null;
  created_at: Date | string;
  chat_name: string;
  chat_avatar: string | null;
  chat_type: ChatType;
}

const HISTORY_LIMIT = 100;

/** Call history of the chats the caller is in, newest first (spec §3 Call). */
export async function callsRoutes(app: App): Promise<void> {
  // Each answer is serialized by its schema: a field the contract does not name never leaves the server.
  app.get(routes.history.url, { schema: contractSchema(routes.history) }, async (request) => {
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
        direction: row.caller_id === me ? ('outgoing' as const) : ('incoming' as const),
      })),
    };
  });

  const calls = app.services.calls;

  app.post(routes.start.url, { schema: contractSchema(routes.start) }, async (request) =>
    calls.start(caller(request).id, request.body.chat_id),
  );

  app.post(routes.reject.url, { schema: contractSchema(routes.reject) }, async (request) =>
    calls.reject(caller(request).id, request.body.chat_id),
  );

  app.get(routes.ticket.url, { schema: contractSchema(routes.ticket) }, async (request) =>
    calls.token(caller(request).id, request.query.chat_id),
  );

  app.get(routes.participants.url, { schema: contractSchema(routes.participants) }, async (request, reply) => {
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
    // Passed on as it came, whatever its status: that node serialized it by the same schema (or refused).
    const passOn = reply as unknown as FastifyReply;
    return passOn.code(answer.status).type('application/json').send(await answer.text());
  });

  // Spec §7 names a `token` parameter; the bearer token is what authorises it here.
  app.get(routes.running.url, { schema: contractSchema(routes.running) }, async (request) =>
    calls.callId(caller(request).id, request.query.chat_id),
  );

  app.get(routes.recording.url, { schema: contractSchema(routes.recording) }, async (request) => calls.recording(caller(request).id, request.query.chat_id));

  app.put(routes.setRecording.url, { schema: contractSchema(routes.setRecording) }, async (request) =>
    calls.setRecording(caller(request).id, request.body.chat_id, request.body.enabled),
  );
}
