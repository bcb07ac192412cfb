import Type from 'typebox';
import type { App } from '../../http/types.js';
import { caller } from '../../http/types.js';
import { ServerStrings } from '../../http/errors.js';
import { FlowConnection } from './flow-connection.js';
import { checkOrigin, superviseSocket } from './socket-guard.js';

const FlowQuery = Type.Object({
  token: Type.String({ minLength: 1 }),
  /** The last seq the client applied; omitted on a first connection. */
  since: Type.Optional(Type.Integer({ minimum: 0 })),
});

/** The live-event socket: `/api/user/flow?token=…&since=…`. Server to client only. */
export async function flowRoutes(app: App): Promise<void> {
  app.get(
    '/user/flow',
    {
      websocket: true,
      config: { tokenInQuery: true },
      schema: { querystring: FlowQuery },
      preValidation: async (request) => checkOrigin(request),
    },
    (socket, request) => {
      const auth = caller(request);
      const link = superviseSocket(socket, auth);
      const connection = new FlowConnection(auth.id, app.services.events, app.services.bus, link.send, (error) => {
        request.log.error({ err: error }, 'flow connection failed');
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
      socket.on('close', () => connection.close());
      void connection.start(request.query.since);
    },
  );
}
