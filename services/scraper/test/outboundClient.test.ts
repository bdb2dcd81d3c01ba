import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundClient, type OutboundClientOptions } from '../src/outbound/outboundClient.ts';
import type { OutboundError } from '@leadforge/kit/outbound';
import { retryAfterMs } from '../src/outbound/retryPolicy.ts';
import { memoryProxyQuota } from '../src/outbound/proxyQuota.ts';
import type { UsageEntry } from '../src/outbound/outboundClient.ts';
import { FAULT_HOSTS, startFixtureWeb, type FixtureWeb } from './fixtureWeb/fixtureWeb.ts';

describe('the outbound HTTP client against the fixture web', () => {
  let web: FixtureWeb;
  let slowWeb: FixtureWeb;
  const clients: OutboundClient[] = [];
  let usage: UsageEntry[] = [];

  const client = (overrides: Partial<OutboundClientOptions> = {}, on: () => FixtureWeb = () => web) => {
    const target = on();
    const made = new OutboundClient({
      userAgent: 'LeadforgeBot/1.0 (+https://leadforge.example/bot)', allowPrivateNetworks: true, lookup: target.loopbackLookup, route: target.route,
      globalConcurrency: 16, perHostConcurrency: 2, perHostDelayMs: 0, maxCrawlDelayMs: 1500, connectTimeoutMs: 1000,
      totalTimeoutMs: 1500, maxResponseBytes: 512 * 1024, maxRetries: 2, maxRetryAfterMs: 3000, retryBaseMs: 20,
      quota: memoryProxyQuota(), usage: { record: (entry) => usage.push(entry) }, ...overrides,
    });
    clients.push(made);
    return made;
  };
  const failure = (promise: Promise<unknown>) => promise.then(() => { throw new Error('expected a failure'); }, (error: OutboundError) => error);

  beforeAll(async () => {
    web = await startFixtureWeb({ sites: 10, proxyCredentials: { username: 'lead', password: 'forge' } });
    slowWeb = await startFixtureWeb({ sites: 10, latencyMs: 200 });
  });
  afterAll(async () => {
    await Promise.all(clients.map((made) => made.close()));
    await web?.close();
    await slowWeb?.close();
  });

  // A site that never answers: giving up at all is the point (waiting on would meet the test's timeout).
  it('gives up on a site that does not answer within the total timeout', async () => {
    const error = await failure(client().fetchPage(`http://${FAULT_HOSTS.hang}/`));
    expect(error.code).toBe('timeout');
  });

  it('waits as long as a 429 Retry-After asks, then succeeds', async () => {
    const started = Date.now();
    const page = await client().fetchPage(`http://${FAULT_HOSTS.rateLimited}/`);
    expect(page.html).toContain('patient@ratelimited.fixture.test');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(web.hits.get(`${FAULT_HOSTS.rateLimited} /`)).toBe(3);
  });

  it('does not wait longer than the Retry-After cap: it answers with the failure instead', async () => {
    const strict = await startFixtureWeb({ sites: 0, retryAfterSeconds: 120 });
    try {
      // Waiting the 120 s asked for would meet the test's timeout.
      const error = await failure(client({}, () => strict).fetchPage(`http://${FAULT_HOSTS.rateLimited}/`));
      expect(error).toMatchObject({ code: 'http_status', status: 429 });
    } finally {
      await strict.close();
    }
  });

  it('retries a 500 with backoff', async () => {
    const page = await client().fetchPage(`http://${FAULT_HOSTS.flaky}/`);
    expect(page.html).toContain('020 7946 0999');
    expect(web.hits.get(`${FAULT_HOSTS.flaky} /`)).toBe(3);
  });

  it('keeps its own backoff within the Retry-After cap, so a 500 is retried rather than answered at once', async () => {
    const page = await client({ retryBaseMs: 600_000, maxRetryAfterMs: 50 }).fetchPage(`http://${FAULT_HOSTS.flaky}/capped`);
    expect(page.html).toContain('020 7946 0999');
    expect(web.hits.get(`${FAULT_HOSTS.flaky} /capped`)).toBe(3);
  });

  it('cuts off a 50 MB page at the size cap without reading it', async () => {
    const error = await failure(client().fetchPage(`http://${FAULT_HOSTS.huge}/`));
    expect(error.code).toBe('too_large');
    const entry = [...usage].reverse().find((candidate) => candidate.domain === FAULT_HOSTS.huge)!;
    expect(entry.ok).toBe(false);
  });

  it('refuses binary content for pages without reading it', async () => {
    expect((await failure(client().fetchPage(`http://${FAULT_HOSTS.binary}/`))).code).toBe('unsupported_content');
    expect((await failure(client().scrape(`http://${FAULT_HOSTS.binary}/`))).code).toBe('unsupported_content');
  });

  it('honours robots.txt: a disallowed site is not fetched at all', async () => {
    const error = await failure(client().fetchPage(`http://${FAULT_HOSTS.robotsDisallow}/contact`));
    expect(error.code).toBe('robots_disallowed');
    expect(web.hits.get(`${FAULT_HOSTS.robotsDisallow} /contact`)).toBeUndefined();
    expect(web.hits.get(`${FAULT_HOSTS.robotsDisallow} /robots.txt`)).toBe(1);
  });

  it('reads robots.txt once per site and honours its Crawl-delay between requests', async () => {
    const made = client();
    const started = Date.now();
    await Promise.all(['/', '/contact', '/about'].map((path) => made.fetchPage(`http://${FAULT_HOSTS.crawlDelay}${path}`).catch(() => undefined)));
    // Crawl-delay: 1 spaces the three request starts by a second each.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(web.hits.get(`${FAULT_HOSTS.crawlDelay} /robots.txt`)).toBe(1);
  });

  it('keeps to the per-host limit and spacing, while other hosts go in parallel', async () => {
    const made = client({ perHostConcurrency: 1, perHostDelayMs: 100 }, () => slowWeb);
    const started = Date.now();
    const pages = ['/', '/contact', '/services'];
    await Promise.all(pages.map((path) => made.fetchPage(`http://site-000.fixture.test${path}`)));
    const oneHost = Date.now() - started;
    // robots.txt then three pages one at a time, 200 ms each.
    expect(oneHost).toBeGreaterThanOrEqual(4 * 200);

    slowWeb.atOnce.most = 0;
    await Promise.all([1, 2, 3, 4, 5, 6].map((i) => made.fetchPage(`http://site-00${i}.fixture.test/`)));
    // robots.txt then the page on six hosts at once: six answers awaited side by side, not one after another.
    expect(slowWeb.atOnce.most).toBe(6);
  });

  it('keeps to the global limit across hosts', async () => {
    const made = client({ globalConcurrency: 2 }, () => slowWeb);
    const started = Date.now();
    await Promise.all([7, 8, 9].map((i) => made.fetchPage(`http://site-00${i}.fixture.test/`)));
    // Six requests (robots.txt and page on three hosts), two at a time, 200 ms each.
    expect(Date.now() - started).toBeGreaterThanOrEqual(3 * 200);
  });

  it('goes through the proxy with its credentials, taking one quota unit per proxied request', async () => {
    const quota = memoryProxyQuota(100);
    const made = client({ proxyUrl: web.urls.proxy, quota });
    usage = [];
    await made.fetchPage('http://site-003.fixture.test/');
    // robots.txt and the page.
    expect(await quota.remaining()).toBe(98);
    expect(usage.every((entry) => entry.proxied)).toBe(true);
    const check = await made.throughProxy(web.urls.proxyCheck);
    expect(JSON.parse(check.body.toString()).proxy.ip).toBeTruthy();
    expect(await quota.remaining()).toBe(98);
  });

  it('refuses proxied requests once the quota is exhausted, and sends nothing', async () => {
    const quota = memoryProxyQuota(1);
    const made = client({ proxyUrl: web.urls.proxy, quota });
    const before = web.hits.get('site-004.fixture.test /') ?? 0;
    const error = await failure(made.fetchPage('http://site-004.fixture.test/'));
    expect(error.code).toBe('quota_exhausted');
    expect(await quota.remaining()).toBe(0);
    expect(web.hits.get('site-004.fixture.test /') ?? 0).toBe(before);
  });

  it('reports wrong proxy credentials as a failure', async () => {
    const made = client({ proxyUrl: web.urls.proxy.replace('forge', 'wrong') });
    const error = await failure(made.throughProxy(web.urls.proxyCheck));
    expect(error.code).toBe('network');
    expect(web.proxied.refused).toBeGreaterThan(0);
  });

  it('records usage: outcome, bytes, time and domain without www', async () => {
    usage = [];
    const made = client();
    await made.fetchPage('http://site-005.fixture.test/');
    const [robots, page] = usage;
    expect(robots).toMatchObject({ domain: 'site-005.fixture.test', ok: true, proxied: false });
    expect(page).toMatchObject({ domain: 'site-005.fixture.test', ok: true, proxied: false });
    expect(page.bytes).toBeGreaterThan(100);
    expect(page.ms).toBeGreaterThan(0);
    // No such site: a 404 is an answer (success for usage), and the domain is counted without www.
    expect((await failure(made.fetchPage('http://www.nowhere.fixture.test/'))).status).toBe(404);
    expect(usage.at(-1)).toMatchObject({ domain: 'nowhere.fixture.test', ok: true });
    expect((await failure(made.fetchPage(`http://${FAULT_HOSTS.hang}/slow`))).code).toBe('timeout');
    expect(usage.at(-1)).toMatchObject({ domain: FAULT_HOSTS.hang, ok: false, bytes: 0 });
  });

  it('reads Retry-After as seconds or as a date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(new Date(Date.now() + 5000).toUTCString())).toBeGreaterThan(3000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});
