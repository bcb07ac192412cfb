import type { FastifyInstance } from 'fastify';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { HttpError } from './errors.js';

/**
 * What one person may do how often. Each is a window of points per person (every socket and tab of theirs
 * together): `messages` for sends on the chat socket, `lookups` for searches and anything else that finds people
 * or text, `uploads` for files, `sockets` for opening live sockets (a flooder cut off cannot come straight back). Over the limit the caller gets 429 `rate_limited` with when to try again; our
 * client waits that long and sends again, so a person never loses a message to a limit.
 */
export type LimitName = 'messages' | 'lookups' | 'uploads' | 'sockets';

const REFUSALS: Record<LimitName, string> = {
  messages: 'You are sending messages too fast; wait a moment',
  lookups: 'Too many searches in a short time; wait a moment',
  uploads: 'Too many uploads in a short time; wait a moment',
  sockets: 'Too many connections in a short time; wait a moment',
};

/** 429 `rate_limited`: HTTP says when to come back in whole seconds (Retry-After), sockets in milliseconds. */
export class RateLimited extends HttpError {
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(429, 'rate_limited', message, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) });
  }
}

export class RateLimits {
  private readonly limiters: Record<LimitName, RateLimiterAbstract>;

  /**
   * On one node the windows live in this process's memory. In a cluster (`redis`) they live in Redis, shared by
   * every node under the cluster's prefix, so that going through another node does not give anyone more; if
   * Redis cannot be reached, each node falls back to its own memory (a limit per node, never none).
   */
  constructor(limits: Config['rateLimits'], cluster?: { redis: Redis; prefix: string }) {
    const windows: Record<LimitName, { points: number; duration: number }> = {
      messages: { points: limits.messagesPer10s, duration: 10 },
      lookups: { points: limits.lookupsPerMinute, duration: 60 },
      uploads: { points: limits.uploadsPerMinute, duration: 60 },
      sockets: { points: limits.socketsPerMinute, duration: 60 },
    };
    const make = (name: LimitName): RateLimiterAbstract => {
      const memory = new RateLimiterMemory({ keyPrefix: name, ...windows[name] });
      if (!cluster) return memory;
      return new RateLimiterRedis({
        storeClient: cluster.redis,
        keyPrefix: `${cluster.prefix}:limit:${name}`,
        ...windows[name],
        insuranceLimiter: memory,
      });
    };
    this.limiters = { messages: make('messages'), lookups: make('lookups'), uploads: make('uploads'), sockets: make('sockets') };
  }

  /** Takes one of `userId`'s allowance for `name`, or throws 429 `rate_limited` (Retry-After: when one is back). */
  async take(name: LimitName, userId: number): Promise<void> {
    try {
      await this.limiters[name].consume(userId);
    } catch (refusal) {
      if (refusal instanceof RateLimiterRes) throw new RateLimited(REFUSALS[name], Math.max(1, refusal.msBeforeNext));
      throw refusal;
    }
  }
}

/**
 * Routes name the allowance they draw on in their config (`rateLimit: 'lookups'`). Checked in preHandler: after
 * the caller is known and the input validated, so a refused request costs the caller nothing.
 */
export function registerRateLimitHook(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    const limit = request.routeOptions.config.rateLimit;
    if (limit && request.auth) await app.services.rateLimits.take(limit, request.auth.id);
  });
}
