import type { App } from '../../http/types.js';
import { unauthorized } from '../../http/errors.js';
import { bearerToken } from '../../http/auth-hook.js';
import { AuthService } from './service.js';
import { SendCodeBody, SignInBody, SignInManagerBody, SignInManagerExtraBody, SignInQuery } from './schemas.js';

export async function authRoutes(app: App): Promise<void> {
  const auth = new AuthService(app.services);
  const open = { config: { public: true } } as const;

  app.post('/auth/send-code', { ...open, schema: { body: SendCodeBody } }, async (request) =>
    auth.sendCode(request.body.phone, request.ip),
  );

  app.post('/auth/sign-in', { ...open, schema: { body: SignInBody, querystring: SignInQuery } }, async (request) =>
    auth.signIn(request.body.phone, request.body.code, request.query.code),
  );

  // Staff: password, then extra password (docs/api.md, issue 4). `?code=` (an invite code) is accepted like on
  // sign-in and ignored: staff accounts exist already, nobody is attributed to an inviter here.
  app.post('/auth/sign-in-manager', { ...open, schema: { body: SignInManagerBody, querystring: SignInQuery } }, async (request) =>
    auth.staff.first(request.body.phone, request.body.password, request.ip),
  );

  app.post(
    '/auth/sign-in-manager-extra',
    { ...open, schema: { body: SignInManagerExtraBody, querystring: SignInQuery } },
    async (request) => auth.staff.second(request.body.phone, request.body.password, request.body.ticket, request.ip),
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
