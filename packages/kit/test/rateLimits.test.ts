import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { describe, expect, it, vi } from 'vitest';
import { rateLimited, registerRateLimits, type CounterStore } from '../src/http/rateLimits.ts';

const redisUrl = process.env.TEST_REDIS_URL || process.env.REDIS_URL;
// What the limits read of a request: its address, its body, and its route's options (the plugin's).
const fakeRequest = (ip: string, body: unknown = {}) => ({ ip, body, routeOptions: { config: {} } }) as never;

/** The counters of a fresh app: @fastify/rate-limit with its Redis store, or its in-process one. */
async function countersOf(redis?: Redis): Promise<{ store: CounterStore; close(): Promise<void> }> {
  const app = Fastify();
  const store = await registerRateLimits(app, redis);
  return { store, close: () => app.close() };
}

function limiterContract(name: string, makeStore: () => Promise<{ store: CounterStore; close(): Promise<void> }>) {
  describe(name, () => {
    it('lets max requests through per subject and window, then answers 429 with Retry-After', async () => {
      const { store, close } = await makeStore();
      try {
        const limit = rateLimited(store, { name: `t${Math.random()}`, max: 3, windowMs: 60_000 });
        for (let i = 0; i < 3; i++) await limit(fakeRequest('127.0.0.11'));
        await expect(limit(fakeRequest('127.0.0.11'))).rejects.toMatchObject({ statusCode: 429, headers: { 'retry-after': expect.any(String) } });
        await limit(fakeRequest('127.0.0.12'));
      } finally {
        await close();
      }
    });

    it('enforces several limits on one route (per IP and per account)', async () => {
      const { store, close } = await makeStore();
      try {
        const tag = Math.random();
        const limit = rateLimited(store,
          { name: `ip${tag}`, max: 100, windowMs: 60_000 },
          { name: `acct${tag}`, max: 2, windowMs: 60_000, key: (r) => (r.body as { email: string }).email });
        await limit(fakeRequest('127.0.0.11', { email: 'a' }));
        await limit(fakeRequest('127.0.0.12', { email: 'a' }));
        await expect(limit(fakeRequest('127.0.0.13', { email: 'a' }))).rejects.toMatchObject({ statusCode: 429 });
      } finally {
        await close();
      }
    });

    it('starts a new window once the old one ends', async () => {
      const { store, close } = await makeStore();
      try {
        const limit = { name: `w${Math.random()}`, windowMs: 50 };
        const hit = () => store.hit(fakeRequest('127.0.0.11'), limit, '127.0.0.11');
        expect((await hit()).count).toBe(1);
        expect((await hit()).count).toBe(2);
        // Each hit of the old window counts on; the first of the next counts one again.
        await vi.waitFor(async () => expect((await hit()).count).toBe(1), { timeout: 5_000, interval: 10 });
      } finally {
        await close();
      }
    });
  });
}

limiterContract('in-process counters', () => countersOf());
describe.skipIf(!redisUrl)(`Redis counters${redisUrl ? '' : ' (skipped: no redis-server; apt-get install -y redis-server)'}`, () => {
  limiterContract('on Redis', async () => {
    const redis = new Redis(redisUrl!);
    const counters = await countersOf(redis);
    return { store: counters.store, close: async () => { await counters.close(); redis.disconnect(); } };
  });
});
