import type { App } from '../../http/types.js';
import { contractSchema } from '../../http/contract.js';
import { unauthorized } from '../../http/errors.js';
import { bearerToken } from '../../http/auth-hook.js';
import { AuthService } from './service.js';
import { authRoutes as routes } from './schemas.js';

export async function authRoutes(app: App): Promise<void> {
  const auth = new AuthService(app.services);
  const open = { config: { public: true } } as const;

  // Each answer is serialized by its schema: a field the contract does not name never leaves the server.
  app.post(routes.sendCode.url, { ...open, schema: contractSchema(routes.sendCode) }, async (request) =>
    auth.sendCode(request.body.phone, request.ip),
  );

  app.post(routes.signIn.url, { ...open, schema: contractSchema(routes.signIn) }, async (request) => auth.signIn(request.body.phone, request.body.code, request.query.code));

  // Staff: password, then extra password (docs/api.md, issue 4). `?code=` (an invite code) is accepted like on
  // sign-in and ignored: staff accounts exist already, nobody is attributed to an inviter here.
  const first = routes.signInManager;
  app.post(first.url, { ...open, schema: contractSchema(first) }, async (request) =>
    auth.staff.first(request.body.phone, request.body.password, request.ip),
  );

  const second = routes.signInManagerExtra;
  app.post(second.url, { ...open, schema: contractSchema(second) }, async (request) =>
    auth.staff.second(request.body.phone, request.body.password, request.body.ticket, request.ip),
  );

  // The refresh token travels in Authorization, as the spec has it; the body is empty.
  app.post(routes.refresh.url, { ...open, schema: contractSchema(routes.refresh) }, async (request) => {
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
