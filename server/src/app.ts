import Fastify, { type FastifyBaseLogger } from 'fastify';
import websocket from '@fastify/websocket';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.js';
import type { Db } from './db/index.js';
import { createServices } from './services.js';
import { loggerOptions } from './logger.js';
import { registerErrorHandler } from './http/error-handler.js';
import { badRequest } from './http/errors.js';
import { unstorableText } from './http/text.js';
import { checkAnswerShape } from './http/contract.js';
import { finiteKeyword } from './http/schema-types.js';
import { registerAuthHook } from './http/auth-hook.js';
import { registerRateLimitHook } from './http/rate-limits.js';
import type { App, RouteEntry } from './http/types.js';
import { authRoutes } from './modules/auth/routes.js';
import { usersRoutes } from './modules/users/routes.js';
import { staffRoutes } from './modules/staff/routes.js';
import { contactsRoutes } from './modules/contacts/routes.js';
import { chatsRoutes } from './modules/chats/routes.js';
import { messagesRoutes, CHAT_FRAME_MAX_BYTES } from './modules/messages/routes.js';
import { callsRoutes } from './modules/calls/routes.js';
import { meetSocketRoutes } from './modules/calls/meet-socket.js';
import { statsRoutes } from './modules/stats/routes.js';
import { flowRoutes } from './modules/realtime/routes.js';
import { pushRoutes } from './modules/push/routes.js';
import { pruneSubscriptions } from './modules/push/notifier.js';
import { devRoutes } from './modules/dev/routes.js';
import { filesRoutes } from './modules/files/routes.js';
import { webRoutes } from './modules/web/routes.js';
import { pruneStaffAuth } from './modules/auth/attempts.js';
import { CHECKPOINT_CHECK_MS, checkpointIfDue } from './db/pglite-checkpoints.js';
import { PeriodicJob } from './jobs/periodic.js';
import { CLUSTER_HEARTBEAT_MS } from './modules/calls/service.js';
import { lazySchemas } from './http/lazy-schemas.js';

const HOUR_MS = 60 * 60 * 1000;
/** A database that does not answer `SELECT 1` within this is reported unhealthy. */
const HEALTH_TIMEOUT_MS = 2_000;

/** Builds the whole server on an open, migrated database. Listening is the caller's business (main.ts, tests). */
export async function buildApp(config: Config, db: Db, options: { logger?: FastifyBaseLogger } = {}): Promise<App> {
  const schemas = lazySchemas();
  const app = Fastify({
    ...(options.logger
      ? { loggerInstance: options.logger }
      : { logger: loggerOptions(config.logLevel, process.stdout.isTTY === true && config.nodeEnv !== 'production') }),
    // The first `trustProxy` hops back from the socket are our proxies (proxy-addr's hop count, as a function: the
    // number form is missing from Fastify's types); the address before them is the client's.
    trustProxy: config.trustProxy === false ? false : (_address: string, hop: number) => hop < (config.trustProxy as number),
    bodyLimit: 1024 * 1024,
    // Ajv: reject unknown properties instead of silently dropping them (mass assignment gets a clear 400).
    ajv: {
      customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: false },
      plugins: [finiteKeyword],
    },
    schemaController: { compilersFactory: schemas.compilersFactory },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.decorate('lazySchemas', schemas);

  app.decorate(
    'services',
    await createServices(config, db, app.log, () => {
      const address = app.server.address();
      if (!address || typeof address === 'string') return null;
      // Bound to every interface: the other nodes of a one-machine cluster reach it on loopback (NODE_URL otherwise).
      const host = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address;
      return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
    }),
  );
  // Every route as registered (HEAD twins left out): the permission-matrix test checks that it covers them all.
  const routeList: RouteEntry[] = [];
  app.decorate('routeList', routeList);
  app.addHook('onRoute', (route) => {
    const schema = route.schema as RouteEntry['schema'];
    for (const method of [route.method].flat()) if (method !== 'HEAD') routeList.push({ method, url: route.url, schema });
  });
  registerErrorHandler(app);
  // Test runs check every answer against its schema before serialization (http/contract.ts); production serializes only.
  if (config.contractChecks) app.addHook('preSerialization', checkAnswerShape);
  // One rule for every route, present and future: no string of a request may hold what PostgreSQL cannot store
  // (U+0000, half a surrogate pair; see http/text.ts).
  app.addHook('preValidation', async (request) => {
    const problem = unstorableText(request.params) ?? unstorableText(request.query) ?? unstorableText(request.body);
    if (problem) throw badRequest(problem.message, problem.code);
  });
  // Before the auth hook: the plugin's own onRequest hook must mark upgrade requests even when auth refuses
  // them, or the refused socket is never destroyed.
  await app.register(websocket, { options: { maxPayload: CHAT_FRAME_MAX_BYTES } });

  await app.register(
    async (api) => {
      // Every API route needs a token unless it says otherwise; the static client files do not.
      registerAuthHook(api);
      registerRateLimitHook(api);
      api.get('/health', { config: { public: true } }, async (_request, reply) => {
        // What a load balancer asks before sending people here: a node without its database, or cut off from
        // the other nodes, must not get them.
        const database = await Promise.race([
          db.query('SELECT 1').then(() => true, () => false),
          new Promise<boolean>((resolve) => setTimeout(resolve, HEALTH_TIMEOUT_MS, false).unref()),
        ]);
        const cluster = app.services.cluster;
        const healthy = database && (cluster?.connected ?? true);
        if (!healthy) reply.code(503);
        return {
          status: healthy ? 'ok' : 'unhealthy',
          database: db.dialect,
          database_reachable: database,
          ...(cluster ? { node: config.nodeId, nats_connected: cluster.connected } : {}),
        };
      });
      await api.register(authRoutes);
      await api.register(usersRoutes);
      await api.register(staffRoutes);
      await api.register(contactsRoutes);
      await api.register(chatsRoutes);
      await api.register(messagesRoutes);
      await api.register(filesRoutes);
      await api.register(callsRoutes);
      await api.register(meetSocketRoutes);
      await api.register(statsRoutes);
      await api.register(flowRoutes);
      await api.register(pushRoutes);
      const outbox = app.services.devSms;
      if (outbox) await api.register(devRoutes, { outbox });
    },
    { prefix: '/api' },
  );
  await app.register(webRoutes);

  // onClose hooks run last-registered first. The link between nodes closes last of all: the jobs stopped below
  // (expiry, heartbeat ending a dead node's calls, the calls' end) may still commit, and their rings must go out.
  app.addHook('onClose', async () => app.services.cluster?.close());
  // Expired messages are deleted from the start (what expired while the server was down goes first) until close.
  const expiry = app.services.expiry;
  app.addHook('onReady', async () => expiry.start());
  app.addHook('onClose', async () => expiry.stop());
  // Old live events (past EVENT_LOG_RETENTION_DAYS), spent sign-in records and push subscriptions of ended logins
  // go soon after start-up (PRUNE_DELAY_SECONDS), then hourly. Not at once: on the embedded database pruning the
  // events reads their whole table (EventLog.prune; 0.9 s cold in 50 steps for 40 000 events), work the crowd
  // reconnecting to a restarted server should not wait behind.
  const prune = new PeriodicJob(
    'prune of old events, sign-in records and push subscriptions',
    HOUR_MS,
    async () => {
      await app.services.events.prune(config.eventLogRetentionDays);
      await pruneStaffAuth(db);
      await pruneSubscriptions(db);
    },
    app.log,
  );
  app.addHook('onReady', async () => prune.start(config.pruneDelaySeconds * 1000));
  app.addHook('onClose', async () => prune.stop());
  // The embedded database has no checkpointer of its own (see pglite-checkpoints.ts).
  if (db.dialect === 'pglite') {
    const checkpoints = new PeriodicJob('checkpoint of the embedded database', CHECKPOINT_CHECK_MS, async () => void (await checkpointIfDue(db)), app.log);
    app.addHook('onReady', async () => checkpoints.start());
    app.addHook('onClose', async () => checkpoints.stop());
  }
  // Calls a previous process left running end first (their rooms died with it); every room closes with the app.
  const calls = app.services.calls;
  app.addHook('onReady', async () => calls.recover());
  app.addHook('onClose', async () => calls.close());
  // A cluster node keeps saying it is alive, and ends the calls of nodes that stopped (their media died with them).
  if (app.services.cluster) {
    const heartbeat = new PeriodicJob('cluster heartbeat', CLUSTER_HEARTBEAT_MS, () => calls.heartbeat(), app.log);
    app.addHook('onReady', async () => heartbeat.start());
    // Said at once when listening, so the others can forward to it from the start.
    app.addHook('onListen', async () => calls.heartbeat());
    app.addHook('onClose', async () => {
      await heartbeat.stop();
      await calls.leaveCluster();
    });
  }
  app.addHook('onClose', async () => app.services.sockets.stop());
  app.addHook('onClose', async () => app.services.presence.stop());
  // Counters only: nothing to flush, and a Redis that is away must not hold the close up.
  app.addHook('onClose', async () => app.services.redis?.disconnect());
  app.addHook('onClose', async () => app.services.storage.close?.());
  return app;
}
