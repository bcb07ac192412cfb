import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Services } from '../services.js';
import type { LimitName } from './rate-limits.js';
import type { LazySchemas } from './lazy-schemas.js';

/** The signed-in caller, from a verified access token. */
export interface AuthUser {
  id: number;
  /** From the database at each request, never from the token (a demotion applies at once). */
  role: number;
  /** A guest (followed an invite link, no phone yet): refused where docs/api.md says so. */
  temporary: boolean;
  /** Access-token expiry (seconds since the epoch); sockets close when it passes. */
  tokenExp: number;
  /** The login the access token belongs to (absent in tokens issued before logins were named in them). */
  login?: string;
}

/** A registered route and the schemas it validates and serializes with (what the contract test compares). */
export interface RouteEntry {
  method: string;
  url: string;
  schema?: { body?: unknown; params?: unknown; querystring?: unknown; response?: Record<number, unknown> } | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    /** Every route registered, with its schemas (see app.ts). */
    routeList: ReadonlyArray<RouteEntry>;
    /** The routes' schemas, compiled on first use (http/lazy-schemas.ts). */
    lazySchemas: LazySchemas;
  }
  interface FastifyRequest {
    /** Set by the authentication hook on every non-public route; null only on public ones. */
    auth: AuthUser | null;
  }
  interface FastifyContextConfig {
    /** Reachable without an access token (sign-in, health, static files). */
    public?: boolean;
    /** The token comes as `?token=` (WebSocket routes: browsers cannot set headers on an upgrade). */
    tokenInQuery?: boolean;
    /** The per-person allowance this route draws on (http/rate-limits.ts). */
    rateLimit?: LimitName;
  }
}

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** The caller of an authenticated route; the hook guarantees it is there. */
export function caller(request: { auth: AuthUser | null }): AuthUser {
  if (!request.auth) throw new Error('caller() used on a public route');
  return request.auth;
}
