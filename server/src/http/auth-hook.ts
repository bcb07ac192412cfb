import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServerStrings, unauthorized } from './errors.js';
import type { AuthUser } from './types.js';
import type { Services } from '../services.js';

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
    request.auth = await authenticate(app.services, token);
  });
}

/**
 * The caller of an access token as the database has them now. A valid signature is not enough: the person must
 * still exist and not be blocked, and the token must be of their current session generation (ending someone's
 * sessions moves it on, so their tokens stop at once, not when they expire). The role comes from here, never from
 * the token, so a demotion applies to the very next request. One primary-key read per request (those of one
 * moment as one query: AccountStates).
 */
export async function authenticate(services: Pick<Services, 'accountStates' | 'accessTokens'>, token: string): Promise<AuthUser> {
  const claims = await services.accessTokens.verify(token);
  if (!claims) throw unauthorized('Invalid or expired access token', 'invalid_token');
  const user = await services.accountStates.read(claims.userId);
  if (!user || user.deleted) throw unauthorized(ServerStrings.noSuchUser, 'no_such_user');
  // Blocked: the client refreshes, and the refresh answers `you are banned` (403), which signs them out.
  if (user.blocked || user.session_generation !== claims.generation) throw unauthorized('This session has ended', 'session_ended');
  return { id: claims.userId, role: user.role, temporary: user.temporary, tokenExp: claims.exp, login: claims.login };
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
