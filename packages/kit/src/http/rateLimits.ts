import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyRateLimit from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import { tooManyRequests } from './errors.ts';

export interface RateLimit<R extends FastifyRequest = FastifyRequest> {
  /** Names the limit; keys of different limits never collide. */
  name: string;
  max: number;
  windowMs: number;
  /** What is counted; `undefined` skips the limit for this request. Defaults to the client IP. */
  key?: (request: R) => string | undefined;
}

/** Fixed-window counters: shared through Redis across replicas when `REDIS_URL` is set, in this process otherwise. */
export interface CounterStore {
  /** Counts one request of `subject` under the limit `name`; returns the window's count and ms until the window ends. */
  hit(request: FastifyRequest, limit: { name: string; windowMs: number }, subject: string): Promise<{ count: number; resetMs: number }>;
}

type Counter = ReturnType<FastifyInstance['createRateLimit']>;

// The plugin answers how many requests are left under its `max`: with the largest, that is the count itself,
// and each limit compares it with its own max (several limits on one route, each with its own message).
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

/**
 * Registers @fastify/rate-limit on `app` (no route limited by itself) with its Redis store when there is
 * Redis, its in-process store otherwise, and answers the counters the routes' limits count with.
 */
export async function registerRateLimits(app: FastifyInstance, redis?: Redis): Promise<CounterStore> {
  await app.register(fastifyRateLimit, { global: false, ...(redis ? { redis, nameSpace: 'leadforge:rl:' } : {}) });
  // One counter per limit: each holds its own window (the in-process store keeps a map per counter).
  const counters = new Map<string, Counter>();
  // The plugin asks a counter's key of the request itself, at once when it is called: the subject counted is put here just before.
  const subjects = new WeakMap<FastifyRequest, string>();
  return {
    async hit(request, { name, windowMs }, subject) {
      let counter = counters.get(name);
      if (!counter) {
        counter = app.createRateLimit({ max: UNBOUNDED, timeWindow: windowMs, keyGenerator: (counted) => `${name}:${subjects.get(counted)}` });
        counters.set(name, counter);
      }
      subjects.set(request, subject);
      const answer = await counter(request);
      // Only a request on the plugin's allow list is let through uncounted; none is given one.
      if (answer.isAllowed) return { count: 0, resetMs: windowMs };
      return { count: UNBOUNDED - answer.remaining, resetMs: answer.ttl > 0 ? answer.ttl : windowMs };
    },
  };
}

/**
 * A hook that enforces every given limit (e.g. per IP and per account on one route) and answers 429
 * with a detail and Retry-After when one is exceeded. `R` is the route's request, so a key read from
 * the validated body is typed by the route's schema.
 */
export function rateLimited<R extends FastifyRequest = FastifyRequest>(store: CounterStore, ...limits: RateLimit<R>[]) {
  return async (request: R) => {
    for (const limit of limits) {
      const subject = limit.key ? limit.key(request) : request.ip;
      if (subject === undefined) continue;
      const { count, resetMs } = await store.hit(request, limit, subject);
      if (count > limit.max) {
        const seconds = Math.max(1, Math.ceil(resetMs / 1000));
        throw tooManyRequests(`Too many requests; try again in ${seconds} second${seconds === 1 ? '' : 's'}`, seconds);
      }
    }
  };
}
