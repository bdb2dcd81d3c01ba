import type { FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { tooManyRequests } from './errors.ts';

/** Fixed-window counters: shared through Redis across replicas when `REDIS_URL` is set. */
export interface CounterStore {
  /** Adds one to `key` in the current window; returns the new count and ms until the window ends. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }>;
}

export function memoryCounterStore(): CounterStore {
  const windows = new Map<string, { count: number; endsAt: number }>();
  return {
    async hit(key, windowMs) {
      const now = Date.now();
      let w = windows.get(key);
      if (!w || w.endsAt <= now) {
        w = { count: 0, endsAt: now + windowMs };
        windows.set(key, w);
        if (windows.size > 50_000) {
          for (const [k, v] of windows) if (v.endsAt <= now) windows.delete(k);
        }
      }
      w.count += 1;
      return { count: w.count, resetMs: w.endsAt - now };
    },
  };
}

// INCR and set the window's expiry on first hit, atomically.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return { count, redis.call('PTTL', KEYS[1]) }`;

export function redisCounterStore(redis: Redis, prefix = 'leadforge:rl:'): CounterStore {
  return {
    async hit(key, windowMs) {
      const [count, ttl] = (await redis.eval(HIT_SCRIPT, 1, `${prefix}${key}`, String(windowMs))) as [number, number];
      return { count, resetMs: ttl > 0 ? ttl : windowMs };
    },
  };
}

export interface RateLimit<R extends FastifyRequest = FastifyRequest> {
  /** Names the limit; keys of different limits never collide. */
  name: string;
  max: number;
  windowMs: number;
  /** What is counted; `undefined` skips the limit for this request. Defaults to the client IP. */
  key?: (request: R) => string | undefined;
}

/**
 * A preHandler that enforces every given limit (e.g. per IP and per account on one route) and
 * answers 429 with a detail and Retry-After when one is exceeded. `R` is the route's request, so a
 * key read from the validated body is typed by the route's schema.
 */
export function rateLimited<R extends FastifyRequest = FastifyRequest>(store: CounterStore, ...limits: RateLimit<R>[]) {
  return async (request: R) => {
    for (const limit of limits) {
      const subject = limit.key ? limit.key(request) : request.ip;
      if (subject === undefined) continue;
      const { count, resetMs } = await store.hit(`${limit.name}:${subject}`, limit.windowMs);
      if (count > limit.max) {
        const seconds = Math.max(1, Math.ceil(resetMs / 1000));
        throw tooManyRequests(`Too many requests; try again in ${seconds} second${seconds === 1 ? '' : 's'}`, seconds);
      }
    }
  };
}
