import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Db } from './db/index.js';
import { EventBus } from './events/bus.js';
import { EventLog } from './events/log.js';
import { AccessTokens } from './security/access-tokens.js';
import { AccountStates } from './modules/auth/account-states.js';
import { MediaTokens } from './security/media-tokens.js';
import { loadSecrets, type Secrets } from './security/secrets.js';
import type { SmsProvider } from './modules/auth/sms/provider.js';
import { DevSmsProvider } from './modules/auth/sms/dev.js';
import { HttpSmsProvider } from './modules/auth/sms/http.js';
import { LocalDiskStorage, type FileStorage } from './modules/files/storage.js';
import { ExpirySweeper } from './modules/messages/expiry.js';
import { DeferredMediaEngine } from './media/deferred-engine.js';
import type { MediaEngine } from './media/engine.js';
import { MeetTokens } from './security/meet-tokens.js';
import { CallsService } from './modules/calls/service.js';
import { RateLimits } from './http/rate-limits.js';
import { MessageWriter } from './modules/messages/writer.js';
import { TypingSignals } from './modules/messages/typing.js';
import { Presence } from './modules/presence/service.js';
import { PushNotifier } from './modules/push/notifier.js';
import { vapidKeysFrom } from './modules/push/vapid.js';
import { SocketSupervisor } from './modules/realtime/socket-guard.js';
// Cluster-only parts (NATS, Redis: 130 ms to load) are imported when configured, so a single node starts faster.
import type { NatsLink } from './cluster/nats-link.js';
import type { Redis } from 'ioredis';

/** Whether every server of a NATS_URL is on this machine (loopback). */
function natsOnLoopback(natsUrl: string | undefined): boolean {
  if (!natsUrl) return false;
  return natsUrl.split(',').every((server) => {
    try {
      const { hostname } = new URL(server.trim().includes('://') ? server.trim() : `nats://${server.trim()}`);
      return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
    } catch {
      return false;
    }
  });
}

/** What the route plugins share, decorated onto the Fastify instance rather than imported as globals. */
export interface Services {
  config: Config;
  db: Db;
  bus: EventBus;
  events: EventLog;
  secrets: Secrets;
  accessTokens: AccessTokens;
  /** Callers' account states, read for every authenticated request (the reads of one moment as one query). */
  accountStates: AccountStates;
  mediaTokens: MediaTokens;
  /** Where uploaded files live (local disk by default). */
  storage: FileStorage;
  /** Deletes expired messages; started and stopped with the app, `sweep()` runs one on demand. */
  expiry: ExpirySweeper;
  sms: SmsProvider;
  /** Present only while the development SMS provider is active (it owns the outbox). */
  devSms: DevSmsProvider | undefined;
  /** Calls: who rings whom, who is in which room; media go through its SFU. */
  calls: CallsService;
  /** The SFU the calls go through. */
  media: MediaEngine;
  /** Per-person allowances for sends, look-ups and uploads. */
  rateLimits: RateLimits;
  /** Writes sent messages, in batches (group commit). */
  messageWriter: MessageWriter;
  /** Who is typing where: live signals to a chat's members, never logged. */
  typing: TypingSignals;
  /** Who is online: written and told as people's live-event sockets open and close. */
  presence: Presence;
  push: PushNotifier;
  /** Every authenticated socket of this process: token expiry and dead peers, with one timer. */
  sockets: SocketSupervisor;
  /** The link with the other nodes of a cluster (NATS_URL); none on a single node. */
  cluster: NatsLink | undefined;
  /** Where the cluster keeps the per-person limits (REDIS_URL); none on a single node. */
  redis: Redis | undefined;
}

export async function createServices(
  config: Config,
  db: Db,
  logger: FastifyBaseLogger,
  /** Where this node listens, once it does (the cluster's other nodes forward meeting sockets there). */
  listeningUrl: () => string | null = () => null,
): Promise<Services> {
  const bus = new EventBus();
  const sockets = new SocketSupervisor();
  let cluster: NatsLink | undefined;
  if (config.natsUrl) {
    const { NatsLink } = await import('./cluster/nats-link.js');
    cluster = await NatsLink.connect(
      { url: config.natsUrl, cluster: config.clusterName, nodeId: config.nodeId },
      {
        onEvent: (userId, event) => bus.deliverHere(userId, event),
        onSignal: (userId, signal) => bus.signalHere(userId, signal),
        onSessionsEnded: (userId, code, reason) => sockets.closeUserHere(userId, code, reason),
        // Rings sent while a node was cut off are lost: the sockets here read what they missed from the log.
        onCatchUp: () => void bus.catchUpAll(),
      },
      logger,
    );
    bus.connectRemote(cluster);
    sockets.connectRemote(cluster);
  }
  const secrets = await loadSecrets(db, config.jwtSecret);
  const devSms = config.sms.provider === 'dev' ? new DevSmsProvider(logger) : undefined;
  // Codes cross NATS only where it is this machine's own (`npm run cluster`): on a shared network anyone who can
  // reach NATS could read them. Elsewhere each node keeps its own outbox.
  if (devSms && cluster && natsOnLoopback(config.natsUrl)) devSms.onSent = cluster.shareDevOutbox(devSms);
  const sms =
    devSms ??
    new HttpSmsProvider({ url: config.sms.httpUrl!, token: config.sms.httpToken, sender: config.sms.httpSender });
  const events = new EventLog(db, bus, config.contractChecks);
  // The in-process SFU loads when a call first needs it, not on the way to listening.
  const media = new DeferredMediaEngine(
    async () => {
      const { WeriftEngine } = await import('./media/werift-engine.js');
      const hostAddresses = [...config.calls.mediaHostAddresses];
      if (config.calls.mediaStunServer) {
        const { publicAddressFrom } = await import('./media/public-address.js');
        const [host, port] = config.calls.mediaStunServer;
        const found = await publicAddressFrom(config.calls.mediaStunServer);
        if (found && !hostAddresses.includes(found)) hostAddresses.push(found);
        if (found) logger.info({ address: found }, 'the SFU offers its public address too');
        else logger.warn({ stunServer: `${host}:${port}` }, 'MEDIA_STUN_SERVER did not answer: the SFU offers only its own addresses');
      }
      return new WeriftEngine({
        maxParticipants: config.calls.maxParticipants,
        hostAddresses,
        portRange: config.calls.mediaPortRange,
        onError: (error) => logger.warn({ err: error }, 'media engine error'),
      });
    },
    (error) => logger.error({ err: error }, 'the media engine failed to load'),
  );
  // Never queue commands while disconnected: a limiter that cannot reach Redis answers from this node's memory at
  // once. Not awaited: a node starts (and keeps counting alone) while Redis is away; ioredis keeps reconnecting.
  const redis = config.redisUrl
    ? new (await import('ioredis')).Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 })
    : undefined;
  redis?.on('error', (error: Error) => logger.warn({ err: error }, 'Redis error (limits fall back to this node)'));
  const push = new PushNotifier(
    db,
    vapidKeysFrom(secrets.vapidSeed),
    {
      subject: config.push.subject,
      onlineHere: (userId) => bus.connectionCount(userId) > 0,
      clustered: cluster !== undefined,
      ringSeconds: config.calls.ringSeconds,
    },
    logger,
  );
  const messageWriter = new MessageWriter(db, bus, (stored) => push.messagesStored(stored), config.contractChecks);
  const calls = new CallsService(db, events, media, new MeetTokens(secrets.meetKey), config.calls, logger, messageWriter, {
    id: config.nodeId,
    clustered: cluster !== undefined,
    url: () => config.nodeUrl ?? listeningUrl(),
  });
  if (cluster) {
    const link = cluster;
    link.onCallEnded = (callId, roomId, reason) => calls.endedElsewhere(callId, roomId, reason);
    link.onCallLeft = (callId, roomId, userIds) =>
      void calls.leftElsewhere(callId, roomId, userIds).catch((error: unknown) => logger.error({ err: error }, 'taking people out of a call failed'));
    calls.joinCluster({
      ended: (callId, roomId, reason) => link.announceCallEnded(callId, roomId, reason),
      left: (callId, roomId, userIds) => link.announceCallLeft(callId, roomId, userIds),
    });
  }
  // Shared by every node in a cluster when S3 is configured; the local disk is the embedded default. The AWS SDK
  // is loaded only then: a single node never pays for it (nor sees its start-up warnings).
  const storage: FileStorage = config.s3 ? new (await import('./modules/files/s3-storage.js')).S3FileStorage(config.s3) : new LocalDiskStorage(config.filesDir);
  const presence = new Presence(db, bus, logger);
  calls.onRinging = (call) => push.callRinging(call);
  calls.onMissed = (call) => push.callMissed(call);
  return {
    config,
    db,
    bus,
    events,
    secrets,
    accessTokens: new AccessTokens(secrets.jwtKey, config.accessTokenTtlSeconds),
    accountStates: new AccountStates(db),
    mediaTokens: new MediaTokens(secrets.mediaKey),
    storage,
    expiry: new ExpirySweeper(db, events, logger, config.expirySweepMs),
    sms,
    devSms,
    calls,
    media,
    rateLimits: new RateLimits(config.rateLimits, redis ? { redis, prefix: config.clusterName } : undefined),
    messageWriter,
    typing: new TypingSignals(db, bus),
    presence,
    push,
    sockets,
    cluster,
    redis,
  };
}
