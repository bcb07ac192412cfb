import Type from 'typebox';
import type { App } from '../../http/types.js';
import { forbidden, notFound } from '../../http/errors.js';
import type { DevSmsProvider } from '../auth/sms/dev.js';
import { toE164 } from '../auth/phone.js';
import { limits } from '@messenger/protocol';

const OutboxQuery = Type.Object({ phone: Type.String({ minLength: 1, maxLength: limits.phoneMaxLength }) });

/** Loopback peers, as the socket sees them (never from X-Forwarded-For, which anyone can write). */
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * The development SMS outbox: the latest code sent to a phone. Registered only while the dev provider is active,
 * which the configuration forbids in production. It answers only to this machine: a server started with HOST
 * open to the network must not let another machine sign in as anyone. A proxied request (X-Forwarded-For) is
 * someone else's even when the proxy itself is local.
 */
export async function devRoutes(app: App, options: { outbox: DevSmsProvider }): Promise<void> {
  app.get('/dev/sms', { config: { public: true }, schema: { querystring: OutboxQuery } }, async (request) => {
    if (!LOOPBACK.test(request.socket.remoteAddress ?? '') || request.headers['x-forwarded-for'] !== undefined) {
      throw forbidden('The development SMS outbox answers only on this machine', 'dev_outbox_local_only');
    }
    const phone = toE164(request.query.phone);
    const code = phone ? options.outbox.codeFor(phone) : undefined;
    if (!code) throw notFound('No code was sent to this phone', 'no_code');
    return { code };
  });
}
