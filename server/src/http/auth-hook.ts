import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unauthorized } from './errors.js';

/**
 * Secure by default: every route needs a valid access token unless its config says `public: true`.
 * Runs in onRequest, so a WebSocket upgrade with a bad token is refused before it is accepted.
 */
export function registerAuthHook(app: FastifyInstance): void {
  if (!app.hasRequestDecorator('auth')) app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    if (config.public || !request.routeOptions.url) return; // public route, or no route (404 handler)
    const token = config.tokenInQuery ? queryToken(request) : bearerToken(request);
    if (!token) throw unauthorized();
    const claims = await app.services.accessTokens.verify(token);
    if (!claims) throw unauthorized('Invalid or expired access token', 'invalid_token');
    request.auth = { id: claims.userId, role: claims.role, tokenExp: claims.exp };
  });
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

function queryToken(request: FastifyRequest): string | undefined {
  const token = (request.query as Record<string, unknown> | undefined)?.token;
  return typeof token === 'string' && token.length > 0 ? token : undefined;
}
