import Type from 'typebox';
import type { App } from '../../http/types.js';
import { notFound } from '../../http/errors.js';
import type { DevSmsProvider } from '../auth/sms/dev.js';
import { toE164 } from '../auth/phone.js';

const OutboxQuery = Type.Object({ phone: Type.String({ minLength: 1, maxLength: 25 }) });

/**
 * The development SMS outbox: the latest code sent to a phone. Registered only while the dev provider is active,
 * which the configuration forbids in production.
 */
export async function devRoutes(app: App, options: { outbox: DevSmsProvider }): Promise<void> {
  app.get('/dev/sms', { config: { public: true }, schema: { querystring: OutboxQuery } }, async (request) => {
    const phone = toE164(request.query.phone);
    const code = phone ? options.outbox.codeFor(phone) : undefined;
    if (!code) throw notFound('No code was sent to this phone', 'no_code');
    return { code };
  });
}
