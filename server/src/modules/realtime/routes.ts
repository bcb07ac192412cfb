import Type from 'typebox';
import type { App } from '../../http/types.js';
import { caller } from '../../http/types.js';
import { ServerStrings } from '../../http/errors.js';
import { FlowConnection } from './flow-connection.js';
import { checkOrigin } from './socket-guard.js';

const FlowQuery = Type.Object({
  token: Type.String({ minLength: 1 }),
  /**
   * The last seq the client applied; omitted on a first connection. Taken as text: a value that is not a seq
   * (`abc`, `-1`, `1.5`) is answered with `resync` over the socket — a refused upgrade would reach a browser only
   * as a failed connection, with no reason it can act on.
   */
  since: Type.Optional(Type.String({ maxLength: 64 })),
});

/** A usable `since` is a non-negative whole number; anything else means the client's position is unknown. */
export function parseSince(raw: string | undefined): number | 'unknown' | undefined {
  if (raw === undefined) return undefined;
  if (!/^[0-9]{1,16}$/.test(raw)) return 'unknown';
  const since = Number(raw);
  return Number.isSafeInteger(since) ? since : 'unknown';
}

/** The live-event socket: `/api/user/flow?token=…&since=…`. Server to client only. */
export async function flowRoutes(app: App): Promise<void> {
  app.get(
    '/user/flow',
    {
      websocket: true,
      config: { tokenInQuery: true, rateLimit: 'sockets' },
      schema: { querystring: FlowQuery },
      preValidation: async (request) => checkOrigin(request),
    },
    (socket, request) => {
      // Only what the socket needs is kept for its lifetime, not the upgrade request (tens of thousands stay open).
      const auth = caller(request);
      const userId = auth.id;
      const link = app.services.sockets.watch(socket, auth);
      const log = app.log;
      const connection = new FlowConnection(userId, app.services.events, app.services.bus, link, (error) => {
        log.error({ err: error, userId }, 'flow connection failed');
        socket.close(1011, 'server error');
      });
      socket.on('message', (data) => {
        // Nothing is expected from the client but pings; anything unreadable gets the spec's answer.
        try {
          JSON.parse(String(data));
        } catch {
          link.send({ event_type: 'error', additional_info: { message: ServerStrings.cannotParse } });
        }
      });
      const presence = app.services.presence;
      presence.opened(userId);
      socket.on('close', () => {
        connection.close();
        presence.closed(userId);
      });
      void connection.start(parseSince(request.query.since));
    },
  );
}
