// Every setting the server reads from the environment, parsed and validated once at start-up.
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { DEFAULT_PASSWORD_HASH_COST, MAX_PASSWORD_HASH_COST } from './security/passwords.js';

export type SmsProviderName = 'dev' | 'http';

export interface RemoteEntry {
  name: string;
  /** URL of the remote's mf-manifest.json, absolute or relative to the page. */
  manifest: string;
}

/** An S3 bucket for uploaded files (AWS, or an S3-compatible store at `endpoint`). */
export interface S3Config {
  bucket: string;
  region: string;
  endpoint: string | undefined;
  /** Bucket in the path (`endpoint/bucket/key`) rather than the host name: what most S3-compatible stores expect. */
  forcePathStyle: boolean;
  /** Without both, the AWS SDK's own chain (environment, instance role…). */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
}

export interface Config {
  nodeEnv: string;
  /**
   * Test runs: every answer and every logged event is checked against the wire contract, and a drift fails the
   * request (500) instead of reaching a client. On under NODE_ENV=test, or with CONTRACT_CHECKS=1.
   */
  contractChecks: boolean;
  host: string;
  port: number;
  logLevel: string;
  /** Folder for the embedded database and, by default, uploaded files. */
  dataDir: string;
  /** Where uploaded files are kept (FILES_DIR; `DATA_DIR/files` by default). */
  filesDir: string;
  /** Uploaded files in S3 when S3_BUCKET is set (what a cluster's nodes share); in filesDir otherwise. */
  s3: S3Config | undefined;
  /** Real PostgreSQL when set; embedded PGlite in dataDir otherwise. */
  databaseUrl: string | undefined;
  /** The cluster: NATS servers (comma-separated URLs) linking the nodes; none on a single node. */
  natsUrl: string | undefined;
  /** This node's name in the cluster (logs, NATS connection name): NODE_ID, or host name and process id. */
  nodeId: string;
  /** The cluster's name (CLUSTER_NAME, `msgr`): the prefix of its NATS subjects and Redis keys, so clusters can share them. */
  clusterName: string;
  /** Redis for the per-person limits shared by every node (REDIS_URL); each node counts alone without it. */
  redisUrl: string | undefined;
  /** Where the other nodes reach this one (NODE_URL); by default its own address, with 127.0.0.1 for "any". */
  nodeUrl: string | undefined;
  /** Secret for access tokens and code hashes; generated and kept in the database when not given. */
  jwtSecret: string | undefined;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  /** How long an already rotated refresh token still works, so two tabs refreshing at once both survive. */
  refreshGraceSeconds: number;
  sms: {
    provider: SmsProviderName;
    httpUrl: string | undefined;
    httpToken: string | undefined;
    httpSender: string;
  };
  /** Phones (E.164) whose owners become top admins (role 3) when they sign in. */
  adminPhones: string[];
  /** Origins allowed to open sockets besides the server's own. */
  allowedOrigins: string[];
  /** Folder holding the built apps (shell/dist and each remote's dist). */
  clientRoot: string;
  remotes: RemoteEntry[];
  eventLogRetentionDays: number;
  /**
   * How long after start-up the first prune of old events runs (PRUNE_DELAY_SECONDS, at most an hour), then hourly:
   * not during the crowd reconnecting to a restarted server, whose one embedded-database connection it would hold.
   */
  pruneDelaySeconds: number;
  /** Origin for links we hand out (invite links); taken from each request when not set. */
  publicUrl: string | undefined;
  /**
   * Whether X-Forwarded-* headers are believed (only behind a proxy that sets them): otherwise anyone could
   * choose their own address and slip past the per-address limits.
   */
  /**
   * How many proxies in front append to `X-Forwarded-For` (false: none, the header is ignored). The client's
   * address is the one the outermost of them saw: entries further left are the client's own to write.
   */
  trustProxy: number | false;
  /** Guest accounts (made by following an invite link signed out) one address may create per hour. */
  guestsPerIpPerHour: number;
  /** How often expired messages are swept, in milliseconds (EXPIRY_SWEEP_MS; 0 = only on demand). */
  expirySweepMs: number;
  /**
   * The work factor of new staff password hashes, as log2 of scrypt's N (PASSWORD_HASH_COST, 15). Each stored
   * hash keeps its own, so a change applies to passwords set from then on. Below 15 only outside production
   * (the tests' servers, which sign staff in hundreds of times).
   */
  passwordHashCost: number;
  calls: {
    /** A call nobody answers within this long is missed. */
    ringSeconds: number;
    /**
     * How long a person whose connection dropped may take to come back into the same call (CALL_RECONNECT_SECONDS,
     * 30). The one number both sides use: browsers learn it with their meeting ticket (`reconnect_seconds`) and
     * retry for that long; the server holds their place (and the call) at least that long.
     */
    reconnectSeconds: number;
    maxParticipants: number;
    /** STUN/TURN URLs given to browsers (TURN_URLS); TURN ones get time-limited credentials from TURN_SECRET. */
    turnUrls: string[];
    turnSecret: string | undefined;
    turnTtlSeconds: number;
    /** Browsers use only TURN relays (CALL_RELAY_ONLY): nobody learns another's address; needs TURN. */
    relayOnly: boolean;
    /** Host addresses the SFU offers besides the machine's own (MEDIA_HOST_ADDRESSES). */
    mediaHostAddresses: string[];
    mediaPortRange: [number, number] | undefined;
    /** A STUN server asked once for this machine's public address, to offer it too (MEDIA_STUN_SERVER). */
    mediaStunServer: [string, number] | undefined;
  };
  /** Web Push (modules/push). */
  push: {
    /** Who the push services may contact about our pushes (VAPID `sub`): PUSH_SUBJECT, a mailto: or https: URL. */
    subject: string;
    /**
     * Origins accepted as push endpoints besides the known push services (PUSH_EXTRA_ORIGINS, comma-separated):
     * for tests with a push service of their own. Anything else is refused, so nobody can make the server post
     * to an address of their choosing.
     */
    extraOrigins: string[];
  };
  /** What one person may do how often (see http/rate-limits.ts). */
  rateLimits: {
    /** Messages sent per 10 s (RATE_MESSAGES_PER_10S). */
    messagesPer10s: number;
    /** Searches and people look-ups per minute (RATE_LOOKUPS_PER_MINUTE). */
    lookupsPerMinute: number;
    /** File uploads per minute (RATE_UPLOADS_PER_MINUTE). */
    uploadsPerMinute: number;
    /** Live sockets (chat, flow) opened per minute (RATE_SOCKETS_PER_MINUTE). */
    socketsPerMinute: number;
  };
  otp: {
    ttlSeconds: number;
    maxAttempts: number;
    resendSeconds: number;
    perPhonePerDay: number;
    perIpPerHour: number;
  };
}

export class ConfigError extends Error {}

/** VAPID's `sub`: a mailto: or https: URL (push services refuse pushes without a way to reach us). */
function pushSubject(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'mailto:' && url.protocol !== 'https:')) {
    throw new ConfigError(`PUSH_SUBJECT must be a mailto: or https: URL (how push services reach us), got "${value}"`);
  }
  return value;
}

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new ConfigError(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return value;
}

function list(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

function portRange(raw: string | undefined): [number, number] | undefined {
  if (!raw) return undefined;
  const match = /^(\d+)-(\d+)$/.exec(raw);
  const [low, high] = match ? [Number(match[1]), Number(match[2])] : [NaN, NaN];
  if (!match || low < 1024 || high > 65535 || low >= high) throw new ConfigError(`MEDIA_PORT_RANGE must look like 40000-40100, got "${raw}"`);
  return [low, high];
}

function stunServer(raw: string | undefined): [string, number] | undefined {
  if (!raw) return undefined;
  const match = /^([^\s:]+):(\d+)$/.exec(raw);
  const port = match ? Number(match[2]) : NaN;
  if (!match || port < 1 || port > 65535) throw new ConfigError(`MEDIA_STUN_SERVER must look like stun.example.com:3478, got "${raw}"`);
  return [match[1]!, port];
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const nodeEnv = env.NODE_ENV ?? 'development';
  const smsHttpUrl = env.SMS_HTTP_URL || undefined;
  const provider = (env.SMS_PROVIDER || (smsHttpUrl ? 'http' : 'dev')) as SmsProviderName;
  if (provider !== 'dev' && provider !== 'http') throw new ConfigError(`SMS_PROVIDER must be "dev" or "http", got "${provider}"`);
  if (provider === 'http' && !smsHttpUrl) throw new ConfigError('SMS_PROVIDER=http needs SMS_HTTP_URL');
  if (provider === 'dev' && nodeEnv === 'production') {
    throw new ConfigError(
      'The dev SMS provider shows sign-in codes to anyone and cannot run with NODE_ENV=production; configure SMS_HTTP_URL.',
    );
  }
  const adminPhones = list(env.ADMIN_PHONES).map((phone) => {
    const parsed = parsePhoneNumberFromString(phone);
    if (!parsed?.isValid()) throw new ConfigError(`ADMIN_PHONES holds an invalid E.164 number: "${phone}"`);
    return parsed.number;
  });
  const publicUrl = env.PUBLIC_URL ? env.PUBLIC_URL.replace(/\/+$/, '') : undefined;
  if (provider === 'http' && !publicUrl) {
    // Invitations are texted to real phones; their link must not come from a request's Host header.
    throw new ConfigError('A real SMS provider needs PUBLIC_URL (the origin people reach us at, e.g. https://chat.example.com)');
  }
  const jwtSecret = env.JWT_SECRET || undefined;
  if (jwtSecret !== undefined && jwtSecret.length < 32) throw new ConfigError('JWT_SECRET must be at least 32 characters');

  const remoteNames = ['mf-messenger', 'mf-calls', 'mf-staff'];
  const remotes = remoteNames.map((name) => {
    const variable = `${name.replace(/-/g, '_').toUpperCase()}_URL`;
    return { name, manifest: env[variable] || `/remotes/${name}/mf-manifest.json` };
  });

  const dataDir = resolve(env.DATA_DIR || join(repoRoot, 'data'));
  const natsUrl = env.NATS_URL || undefined;
  const clusterName = env.CLUSTER_NAME || 'msgr';
  const nodeUrl = env.NODE_URL || undefined;
  if (nodeUrl !== undefined && !/^https?:\/\/[^/?#]+$/.test(nodeUrl)) {
    throw new ConfigError(`NODE_URL must be an origin like http://10.0.0.5:8080 (how the other nodes reach this one), got "${nodeUrl}"`);
  }
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(clusterName)) throw new ConfigError(`CLUSTER_NAME must be letters, digits, - or _ (a NATS subject token), got "${clusterName}"`);
  // Nodes share nothing but PostgreSQL and NATS: an embedded database belongs to one process.
  if (natsUrl && !env.DATABASE_URL) throw new ConfigError('NATS_URL (a cluster) needs DATABASE_URL: nodes share one PostgreSQL; PGlite is one process\'s own');

  const s3Endpoint = env.S3_ENDPOINT || undefined;
  if (s3Endpoint !== undefined && !/^https?:\/\/[^/?#]+\/?$/.test(s3Endpoint)) {
    throw new ConfigError(`S3_ENDPOINT must be an origin like http://127.0.0.1:9000, got "${s3Endpoint}"`);
  }
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together (or neither, for the AWS SDK\'s own credentials)');
  }
  if (!env.S3_BUCKET && (s3Endpoint || env.S3_ACCESS_KEY_ID)) throw new ConfigError('S3 settings without S3_BUCKET: name the bucket for uploaded files');
  const s3: S3Config | undefined = env.S3_BUCKET
    ? {
        bucket: env.S3_BUCKET,
        region: env.S3_REGION || 'us-east-1',
        endpoint: s3Endpoint,
        forcePathStyle: env.S3_FORCE_PATH_STYLE ? env.S3_FORCE_PATH_STYLE === 'true' || env.S3_FORCE_PATH_STYLE === '1' : s3Endpoint !== undefined,
        accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
        secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
      }
    : undefined;

  return {
    nodeEnv,
    contractChecks: env.CONTRACT_CHECKS ? env.CONTRACT_CHECKS === '1' : nodeEnv === 'test',
    // The dev SMS provider hands out every sign-in code: with it, the server listens on this machine only
    // unless HOST says otherwise (and even then its outbox answers only to loopback; modules/dev/routes.ts).
    host: env.HOST || (provider === 'dev' ? '127.0.0.1' : '0.0.0.0'),
    port: int(env, 'PORT', 8080),
    logLevel: env.LOG_LEVEL || (nodeEnv === 'test' ? 'warn' : 'info'),
    dataDir,
    filesDir: resolve(env.FILES_DIR || join(dataDir, 'files')),
    s3,
    databaseUrl: env.DATABASE_URL || undefined,
    natsUrl,
    nodeId: env.NODE_ID || `${hostname()}-${process.pid}`,
    clusterName,
    redisUrl: env.REDIS_URL || undefined,
    nodeUrl,
    jwtSecret,
    accessTokenTtlSeconds: int(env, 'ACCESS_TOKEN_TTL_SECONDS', 15 * 60, 5),
    refreshTokenTtlDays: int(env, 'REFRESH_TOKEN_TTL_DAYS', 90, 1),
    refreshGraceSeconds: int(env, 'REFRESH_GRACE_SECONDS', 10),
    sms: {
      provider,
      httpUrl: smsHttpUrl,
      httpToken: env.SMS_HTTP_TOKEN || undefined,
      httpSender: env.SMS_HTTP_SENDER || 'Messenger',
    },
    adminPhones,
    allowedOrigins: list(env.ALLOWED_ORIGINS),
    clientRoot: resolve(env.CLIENT_ROOT || repoRoot),
    remotes,
    eventLogRetentionDays: int(env, 'EVENT_LOG_RETENTION_DAYS', 30, 1),
    pruneDelaySeconds: Math.min(int(env, 'PRUNE_DELAY_SECONDS', 60, 0), 3600),
    publicUrl,
    trustProxy: proxyHops(env.TRUST_PROXY),
    guestsPerIpPerHour: int(env, 'GUESTS_PER_IP_PER_HOUR', 20, 1),
    expirySweepMs: int(env, 'EXPIRY_SWEEP_MS', 1000, 0),
    passwordHashCost: passwordHashCost(env, nodeEnv),
    calls: {
      ringSeconds: int(env, 'CALL_RING_SECONDS', 60, 1),
      reconnectSeconds: int(env, 'CALL_RECONNECT_SECONDS', 30, 1),
      maxParticipants: int(env, 'CALL_MAX_PARTICIPANTS', 8, 2),
      turnUrls: list(env.TURN_URLS),
      turnSecret: env.TURN_SECRET || undefined,
      turnTtlSeconds: int(env, 'TURN_TTL_SECONDS', 3600, 10),
      relayOnly: env.CALL_RELAY_ONLY === 'true' || env.CALL_RELAY_ONLY === '1',
      // Loopback is always offered: on one machine (and in tests) browsers reach the SFU through it.
      mediaHostAddresses: [...new Set(['127.0.0.1', ...list(env.MEDIA_HOST_ADDRESSES)])],
      mediaPortRange: portRange(env.MEDIA_PORT_RANGE),
      mediaStunServer: stunServer(env.MEDIA_STUN_SERVER),
    },
    push: {
      subject: pushSubject(env.PUSH_SUBJECT || (publicUrl?.startsWith('https://') ? publicUrl : 'mailto:webmaster@localhost')),
      extraOrigins: list(env.PUSH_EXTRA_ORIGINS).map((origin) => origin.replace(/\/+$/, '')),
    },
    rateLimits: {
      messagesPer10s: int(env, 'RATE_MESSAGES_PER_10S', 50, 1),
      lookupsPerMinute: int(env, 'RATE_LOOKUPS_PER_MINUTE', 120, 1),
      uploadsPerMinute: int(env, 'RATE_UPLOADS_PER_MINUTE', 60, 1),
      socketsPerMinute: int(env, 'RATE_SOCKETS_PER_MINUTE', 60, 1),
    },
    otp: {
      ttlSeconds: 5 * 60,
      maxAttempts: 5,
      resendSeconds: 60,
      // Caps against SMS pumping; the per-address one is raised in tests that sign many people in from one host.
      perPhonePerDay: int(env, 'OTP_PER_PHONE_PER_DAY', 10, 1),
      perIpPerHour: int(env, 'OTP_PER_IP_PER_HOUR', 60, 1),
    },
  };
}

/** PASSWORD_HASH_COST: 15 to 17 (log2 of scrypt's N); from 10 outside production. */
function passwordHashCost(env: NodeJS.ProcessEnv, nodeEnv: string): number {
  const floor = nodeEnv === 'production' ? DEFAULT_PASSWORD_HASH_COST : 10;
  const cost = int(env, 'PASSWORD_HASH_COST', DEFAULT_PASSWORD_HASH_COST, floor);
  if (cost > MAX_PASSWORD_HASH_COST) throw new ConfigError(`PASSWORD_HASH_COST must be at most ${MAX_PASSWORD_HASH_COST}, got "${cost}"`);
  return cost;
}

/** TRUST_PROXY: `true` (one proxy), a number of proxies (1–9), or unset/`false` (none). */
function proxyHops(value: string | undefined): number | false {
  if (value === undefined || value === '' || value === 'false' || value === '0') return false;
  if (value === 'true') return 1;
  if (/^[1-9]$/.test(value)) return Number(value);
  throw new ConfigError(`TRUST_PROXY must be true, false or a number of proxies from 1 to 9, got "${value}"`);
}
