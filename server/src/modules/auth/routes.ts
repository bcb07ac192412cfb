import type { App } from '../../http/types.js';
import { unauthorized } from '../../http/errors.js';
import { bearerToken } from '../../http/auth-hook.js';
import { AuthService } from './service.js';
import { SendCodeBody, SignInBody, SignInQuery } from './schemas.js';

export async function authRoutes(app: App): Promise<void> {
  const auth = new AuthService(app.services);
  const open = { config: { public: true } } as const;

  app.post('/auth/send-code', { ...open, schema: { body: SendCodeBody } }, async (request) =>
    auth.sendCode(request.body.phone, request.ip),
  );

  app.post('/auth/sign-in', { ...open, schema: { body: SignInBody, querystring: SignInQuery } }, async (request) =>
    auth.signIn(request.body.phone, request.body.code, request.query.code),
  );

  // The refresh token travels in Authorization, as the spec has it; the body is empty.
  app.post('/auth/refresh', open, async (request) => {
    const token = bearerToken(request);
    if (!token) throw unauthorized('Refresh token required', 'invalid_refresh_token');
    return { jwt_info: await auth.sessions.refresh(token) };
  });

  app.post('/auth/sign-out', open, async (request, reply) => {
    const token = bearerToken(request);
    if (token) await auth.sessions.revoke(token);
    return reply.code(204).send();
  });
}
