import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryProxyQuota, redisProxyQuota } from '../src/outbound/proxyQuota.ts';
import { startFixtureWeb, type FixtureWeb } from './fixtureWeb/fixtureWeb.ts';
import { startScraperUnderTest, type ScraperUnderTest } from './support/scraperUnderTest.ts';

const redisUrl = process.env.TEST_REDIS_URL || process.env.REDIS_URL || undefined;

describe('the in-process proxy quota', () => {
  it('never grants more than it has, however many take at once', async () => {
    const quota = memoryProxyQuota(100);
    const granted = (await Promise.all(Array.from({ length: 1000 }, () => quota.take()))).filter(Boolean).length;
    expect(granted).toBe(100);
    expect(await quota.remaining()).toBe(0);
    expect(await quota.take()).toBe(false);
    await quota.set(3);
    expect(await quota.remaining()).toBe(3);
  });

  it('keeps the limit an admin set while requests are taken', async () => {
    const quota = memoryProxyQuota();
    expect(await quota.limit()).toBe(10_000);
    await quota.set(50);
    await quota.take();
    expect({ remaining: await quota.remaining(), limit: await quota.limit() }).toEqual({ remaining: 49, limit: 50 });
  });
});

describe.skipIf(!redisUrl)(`the proxy quota shared in Redis${redisUrl ? '' : ' (skipped: no redis-server; apt-get install -y redis-server)'}`, () => {
  const key = `leadforge:test:proxy-quota:${crypto.randomBytes(4).toString('hex')}`;
  let connections: Redis[] = [];
  let web: FixtureWeb;
  let scrapers: ScraperUnderTest[] = [];

  beforeAll(async () => {
    connections = [new Redis(redisUrl!), new Redis(redisUrl!), new Redis(redisUrl!)];
    web = await startFixtureWeb({ sites: 80, latencyMs: 20 });
  });
  afterAll(async () => {
    await Promise.all(scrapers.map((scraper) => scraper.stop()));
    await connections[0]?.del(key, `${key}:limit`, `${key}:services`, `${key}:services:limit`);
    for (const connection of connections) connection.disconnect();
    await web?.close();
  });

  it('starts at 10,000 and lets three clients take exactly what is left, atomically', async () => {
    const quotas = connections.map((connection) => redisProxyQuota(connection, key));
    expect(await quotas[0].remaining()).toBe(10_000);
    expect(await quotas[0].limit()).toBe(10_000);
    await quotas[1].set(50);
    expect(await quotas[0].limit()).toBe(50);
    const granted = (await Promise.all(quotas.flatMap((quota) => Array.from({ length: 100 }, () => quota.take())))).filter(Boolean).length;
    expect(granted).toBe(50);
    expect(await quotas[2].remaining()).toBe(0);
    expect(await connections[0].get(key)).toBe('0');
    expect(await quotas[2].limit()).toBe(50);
  });

  it('three scraper instances sharing one Redis never exceed the quota in total', async () => {
    const serviceKey = `${key}:services`;
    const quota = 60;
    const env = {
      REDIS_URL: redisUrl!, SCRAPER_QUOTA_REDIS_KEY: serviceKey, DECODO_PROXY_URL: web.urls.proxy,
      SCRAPER_PLACE_CONCURRENCY: '4',
    };
    scrapers = await Promise.all([0, 1, 2].map(() => startScraperUnderTest({ kind: 'pglite', web, env })));
    await redisProxyQuota(connections[0], serviceKey).set(quota);
    const siteRequests = () => [...web.hits].filter(([path]) => path.split(' ')[0].endsWith('.fixture.test')).reduce((sum, [, count]) => sum + count, 0);
    const before = siteRequests();

    await Promise.all(scrapers.map((scraper, i) => scraper.requestSearch({ search_id: `quota-${i}`, quantity: 50 })));
    const finished = await Promise.all(scrapers.map((scraper, i) => scraper.finished(`quota-${i}`, 60_000)));

    // Every request to a site went through the proxy and took one unit first: never more than the
    // quota (a unit taken for a request that the stop then aborted is spent but never sent).
    expect(siteRequests() - before).toBeLessThanOrEqual(quota);
    expect(await connections[0].get(serviceKey)).toBe('0');
    // The searches end gracefully with what they found before the quota ran out.
    expect(finished.reduce((sum, event) => sum + event.data.stats.total_found, 0)).toBeGreaterThan(0);
    expect(finished.map((event) => event.data.reason)).toContain('quota_exhausted');
    for (const event of finished) {
      expect(['quota_exhausted', 'done']).toContain(event.data.reason);
      expect(event.data.stats.total_found).toBeLessThan(50);
    }
    const usage = await scrapers[0].call('GET', '/api/admin/decodo-usage', undefined, scrapers[0].identities.tokenFor('admin-1', 'admin'));
    expect(usage.body.quota.remaining_requests).toBe(0);
  }, 90_000);
});
