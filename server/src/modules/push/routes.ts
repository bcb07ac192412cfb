import type { App } from '../../http/types.js';
import { caller } from '../../http/types.js';
import { badRequest, unauthorized } from '../../http/errors.js';
import { isPushEndpoint } from './endpoints.js';
import { SubscribeBody, UnsubscribeBody } from './schemas.js';

/** Web Push: the server's public key, and each browser's subscription (docs/api.md, "Push"). */
export async function pushRoutes(app: App): Promise<void> {
  const { db, push, config } = app.services;

  app.get('/push/key', async () => ({ public_key: push.keys.publicKey }));

  // Saved for the login the access token belongs to: signing out of it ends the pushes. The same browser signing
  // in as someone else takes its subscription over (the endpoint is the browser's, not the person's).
  app.put('/push/subscription', { schema: { body: SubscribeBody }, config: { rateLimit: 'lookups' } }, async (request, reply) => {
    const me = caller(request);
    if (!me.login) throw unauthorized('This access token is older than push notifications: refresh it', 'invalid_token');
    const { endpoint, keys, language } = request.body;
    if (!isPushEndpoint(endpoint, config.push.extraOrigins)) throw badRequest('Not the address of a push service', 'invalid_push_endpoint');
    await db.query(
      `INSERT INTO push_subscriptions (user_id, login_id, endpoint, p256dh, auth, language) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (endpoint) DO UPDATE
         SET user_id = excluded.user_id, login_id = excluded.login_id, p256dh = excluded.p256dh, auth = excluded.auth,
             language = excluded.language`,
      [me.id, me.login, endpoint, keys.p256dh, keys.auth, language],
    );
    return reply.code(204).send();
  });

  // Only one's own: someone else's endpoint is left alone (and the answer is the same, so it reveals nothing).
  app.delete('/push/subscription', { schema: { body: UnsubscribeBody } }, async (request, reply) => {
    await db.query('DELETE FROM push_subscriptions WHERE endpoint = $1 AND user_id = $2', [request.body.endpoint, caller(request).id]);
    return reply.code(204).send();
  });
}
