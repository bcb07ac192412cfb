import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Db } from './db/index.js';
import { EventBus } from './events/bus.js';
import { EventLog } from './events/log.js';
import { AccessTokens } from './security/access-tokens.js';
import { loadSecrets, type Secrets } from './security/secrets.js';
import type { SmsProvider } from './modules/auth/sms/provider.js';
import { DevSmsProvider } from './modules/auth/sms/dev.js';
import { HttpSmsProvider } from './modules/auth/sms/http.js';

/** What the route plugins share, decorated onto the Fastify instance rather than imported as globals. */
export interface Services {
  config: Config;
  db: Db;
  bus: EventBus;
  events: EventLog;
  secrets: Secrets;
  accessTokens: AccessTokens;
  sms: SmsProvider;
  /** Present only while the development SMS provider is active (it owns the outbox). */
  devSms: DevSmsProvider | undefined;
}

export async function createServices(config: Config, db: Db, logger: FastifyBaseLogger): Promise<Services> {
  const bus = new EventBus();
  const secrets = await loadSecrets(db, config.jwtSecret);
  const devSms = config.sms.provider === 'dev' ? new DevSmsProvider(logger) : undefined;
  const sms =
    devSms ??
    new HttpSmsProvider({ url: config.sms.httpUrl!, token: config.sms.httpToken, sender: config.sms.httpSender });
  return {
    config,
    db,
    bus,
    events: new EventLog(db, bus),
    secrets,
    accessTokens: new AccessTokens(secrets.jwtKey, config.accessTokenTtlSeconds),
    sms,
    devSms,
  };
}
