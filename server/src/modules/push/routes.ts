import type { App } from '../../http/types.js';
import { contractSchema } from '../../http/contract.js';
import { caller } from '../../http/types.js';
import { badRequest, unauthorized } from '../../http/errors.js';
import { isBrowserKey, isPushEndpoint } from './endpoints.js';
import { SubscribeBody, UnsubscribeBody, pushRoutes as routes } from './schemas.js';

/** Browsers one person may have subscribed at once (a phone, a laptop, a work computer…). */
const MAX_SUBSCRIPTIONS_PER_PERSON = 10;

/** Web Push: the server's public key, and each browser's subscription (docs/api.md, "Push"). */
export async function pushRoutes(app: App): Promise<void> {
  const { db, push, config } = app.services;

  app.get(routes.key.url, { schema: contractSchema(routes.key) }, async () => ({ public_key: push.keys.publicKey }));

  // Saved for the login the access token belongs to — one browser per login, so it replaces that login's earlier
  // endpoint — and signing out of it ends the pushes. The same browser signing in as someone else takes its
  // subscription over (the endpoint is the browser's, not the person's), but only with the browser's own secret:
  // knowing an endpoint is not enough to redirect or silence someone's pushes.
  app.put('/push/subscription', { schema: { body: SubscribeBody }, config: { rateLimit: 'lookups' } }, async (request, reply) => {
    const me = caller(request);
    if (!me.login) throw unauthorized('This access token is older than push notifications: refresh it', 'invalid_token');
    const { endpoint, keys, language } = request.body;
    if (!isPushEndpoint(endpoint, config.push.extraOrigins)) throw badRequest('Not the address of a push service', 'invalid_push_endpoint');
    if (!isBrowserKey(keys.p256dh)) throw badRequest('keys.p256dh is not a P-256 public key', 'invalid_push_key');
    await db.transaction(async (tx) => {
      await tx.query('DELETE FROM push_subscriptions WHERE login_id = $1 AND endpoint <> $2', [me.login, endpoint]);
      await tx.query(
        `INSERT INTO push_subscriptions (user_id, login_id, endpoint, p256dh, auth, language) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (endpoint) DO UPDATE
           SET user_id = excluded.user_id, login_id = excluded.login_id, p256dh = excluded.p256dh,
               language = excluded.language, failures = 0, saved_at = now()
         WHERE push_subscriptions.auth = excluded.auth`,
        [me.id, me.login, endpoint, keys.p256dh, keys.auth, language],
      );
      // Logins outlive browsers (cleared data, reinstalls): a person's oldest subscriptions go past a few.
      await tx.query(
        `DELETE FROM push_subscriptions WHERE user_id = $1
            AND id NOT IN (SELECT id FROM push_subscriptions WHERE user_id = $1 ORDER BY saved_at DESC, id DESC LIMIT $2)`,
        [me.id, MAX_SUBSCRIPTIONS_PER_PERSON],
      );
    });
    push.subscribed();
    return reply.code(204).send();
  });

  // Only one's own: someone else's endpoint is left alone (and the answer is the same, so it reveals nothing).
  app.delete('/push/subscription', { schema: { body: UnsubscribeBody } }, async (request, reply) => {
    await db.query('DELETE FROM push_subscriptions WHERE endpoint = $1 AND user_id = $2', [request.body.endpoint, caller(request).id]);
    return reply.code(204).send();
  });
}
