import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresConfigured, type TestDatabaseKind } from '@leadforge/testing';
import { FAULT_HOSTS, startFixtureWeb, type FixtureWeb } from './fixtureWeb/fixtureWeb.ts';
import { startScraperUnderTest, type ScraperUnderTest } from './support/scraperUnderTest.ts';

const kinds: TestDatabaseKind[] = ['pglite', 'postgres'];
const ADMIN_ROUTES: [string, string, unknown?][] = [
  ['GET', '/api/admin/decodo-stats'],
  ['GET', '/api/admin/decodo-usage'],
  ['POST', '/api/admin/decodo-quota', { remaining_requests: 5 }],
  ['POST', '/api/admin/decodo-reset-stats'],
  ['POST', '/api/scrape', { url: 'http://site-000.fixture.test/' }],
];

for (const kind of kinds) {
  describe.skipIf(kind === 'postgres' && !postgresConfigured)(`scraper admin endpoints on ${kind}${kind === 'postgres' && !postgresConfigured ? ' (skipped: no PostgreSQL; apt-get install -y postgresql)' : ''}`, () => {
    let web: FixtureWeb;
    let scraper: ScraperUnderTest;
    let admin: string;

    beforeAll(async () => {
      web = await startFixtureWeb({ sites: 5, proxyCredentials: { username: 'lead-user', password: 's3cret' }, decodoApiKey: 'decodo-key' });
      scraper = await startScraperUnderTest({ kind, web });
      admin = scraper.identities.tokenFor('admin-1', 'admin');
    });
    afterAll(async () => {
      await scraper?.stop();
      await web?.close();
    });

    it('refuses anonymous (401), non-admin (403) and deactivated admin callers on every route', async () => {
      const user = scraper.identities.tokenFor('user-1', 'user');
      const gone = scraper.identities.tokenFor('admin-gone', 'admin', 'inactive');
      for (const [method, route, body] of ADMIN_ROUTES) {
        expect({ route, status: (await scraper.call(method, route, body)).status }).toEqual({ route, status: 401 });
        const forbidden = await scraper.call(method, route, body, user);
        expect({ route, status: forbidden.status, detail: forbidden.body.detail }).toEqual({ route, status: 403, detail: 'Admin privileges required' });
        expect({ route, status: (await scraper.call(method, route, body, gone)).status }).toEqual({ route, status: 401 });
      }
    });

    it('reports a proxy that is not configured, with a note rather than an error', async () => {
      const stats = await scraper.call('GET', '/api/admin/decodo-stats', undefined, admin);
      expect(stats.status).toBe(200);
      expect(stats.body).toMatchObject({ status: 'Not configured', connection_test: 'Not configured', username: null, error: null });
      expect(stats.body.note).toContain('DECODO_PROXY_URL is not set');
      expect(stats.body.balance).toMatch(/^Unknown - /);
      expect(Date.parse(stats.body.last_updated)).not.toBeNaN();
    });

    it('sets the quota and validates it', async () => {
      const set = await scraper.call('POST', '/api/admin/decodo-quota', { remaining_requests: 2500 }, admin);
      expect(set).toEqual({ status: 200, body: { message: 'Quota updated: 2,500 proxy requests remaining', remaining_requests: 2500 } });
      expect((await scraper.call('GET', '/api/admin/decodo-usage', undefined, admin)).body.quota).toEqual({ remaining_requests: 2500 });
      for (const bad of [{ remaining_requests: -1 }, { remaining_requests: 1.5 }, { remaining_requests: 'lots' }, { remaining_requests: 2e9 }]) {
        const refused = await scraper.call('POST', '/api/admin/decodo-quota', bad, admin);
        expect(refused).toMatchObject({ status: 400, body: { detail: 'remaining_requests must be a whole number from 0 to 1,000,000,000' } });
      }
      expect((await scraper.call('POST', '/api/admin/decodo-quota', {}, admin)).body.detail).toBe('remaining_requests is required');
      expect((await scraper.call('POST', '/api/admin/decodo-quota', '{"remaining', admin)).body.detail).toBe('Request body is not valid JSON');
    });

    it('scrapes an HTML page into a summary of title, status, emails, phones and links', async () => {
      const scraped = await scraper.call('POST', '/api/scrape', { url: 'http://site-000.fixture.test/contact' }, admin);
      expect(scraped.status).toBe(200);
      expect(scraped.body.url).toBe('http://site-000.fixture.test/contact');
      expect(Date.parse(scraped.body.scraped_at)).not.toBeNaN();
      expect(scraped.body.data).toMatchObject({
        title: `${web.sites[0].name} - Contact`,
        status: 200,
        emails: ['info@site-000.fixture.test'],
        phones: ['+442079460000'],
      });
      const home = await scraper.call('POST', '/api/scrape', { url: 'site-000.fixture.test/' }, admin);
      expect(home.status).toBe(502);
      const plain = await scraper.call('POST', '/api/scrape', { url: 'http://site-000.fixture.test/' }, admin);
      expect(plain.body.data.links).toEqual(expect.arrayContaining(['http://site-000.fixture.test/contact']));
    });

    it('scrapes JSON into the parsed data', async () => {
      const scraped = await scraper.call('POST', '/api/scrape', { url: web.urls.proxyCheck }, admin);
      expect(scraped.status).toBe(200);
      expect(scraped.body.data).toMatchObject({ proxy: { ip: expect.any(String) } });
    });

    it('answers every failure with a 4xx or 5xx and a detail, never a 500', async () => {
      const cases: [unknown, number, RegExp][] = [
        [{ url: '' }, 400, /^Please enter a URL to scrape$/],
        [{ url: '   ' }, 400, /^Please enter a URL to scrape$/],
        [{}, 400, /^url is required$/],
        [{ url: 'file:///etc/passwd' }, 400, /Only http and https URLs/],
        [{ url: 'http://169.254.169.254/latest/meta-data/' }, 400, /not allowed: .*cloud metadata address/],
        [{ url: `http://${FAULT_HOSTS.redirectMetadata}/` }, 400, /not allowed: .*cloud metadata address/],
        [{ url: `http://${FAULT_HOSTS.binary}/` }, 422, /application\/octet-stream/],
        [{ url: `http://${FAULT_HOSTS.huge}/` }, 422, /larger than/],
        [{ url: `http://${FAULT_HOSTS.down}/` }, 502, /^Could not scrape the URL/],
        [{ url: 'http://no-such-host.invalid/' }, 502, /Could not resolve no-such-host.invalid/],
        [{ url: `http://${FAULT_HOSTS.hang}/` }, 504, /did not answer within 3 s/],
      ];
      for (const [body, status, detail] of cases) {
        const answer = await scraper.call('POST', '/api/scrape', body, admin);
        expect({ body, status: answer.status }).toEqual({ body, status });
        expect(answer.body.detail).toMatch(detail);
      }
    }, 30_000);

    it('records usage durably and resets it (quota back to 10,000)', async () => {
      const usage = await scraper.call('GET', '/api/admin/decodo-usage', undefined, admin);
      expect(usage.status).toBe(200);
      const body = usage.body;
      expect(body.total_requests).toBe(body.total_successful + body.total_failed);
      expect(body.total_successful).toBeGreaterThan(0);
      expect(body.total_failed).toBeGreaterThan(0);
      expect(body.success_rate).toBeCloseTo((body.total_successful / body.total_requests) * 100, 1);
      expect(body.avg_response_time_ms).toBeGreaterThan(0);
      expect(body.total_traffic_kb).toBeGreaterThan(0);
      expect(body.total_traffic_mb).toBeCloseTo(body.total_traffic_kb / 1024, 1);
      expect(body.top_domains.map((entry: { domain: string }) => entry.domain)).toContain('site-000.fixture.test');
      expect(body.top_domains[0].count).toBeGreaterThanOrEqual(body.top_domains.at(-1).count);
      expect(Date.parse(body.last_updated)).not.toBeNaN();
      const stored = await scraper.svc.ctx.db('scraper_usage_totals').first();
      expect(Number(stored.successful)).toBe(body.total_successful);

      const reset = await scraper.call('POST', '/api/admin/decodo-reset-stats', undefined, admin);
      expect(reset).toEqual({ status: 200, body: { message: 'Usage statistics reset; quota restored to 10,000 requests' } });
      const cleared = (await scraper.call('GET', '/api/admin/decodo-usage', undefined, admin)).body;
      expect(cleared).toEqual({
        total_successful: 0, total_failed: 0, success_rate: 0, quota: { remaining_requests: 10_000 }, avg_response_time_ms: 0,
        total_requests: 0, total_traffic_mb: 0, total_traffic_kb: 0, top_domains: [], pages_given_up: 0, last_updated: null, places_sources: [],
      });
    });

    it('exports usage and quota as Prometheus metrics', async () => {
      const metrics = await (await fetch(`${scraper.svc.url}/metrics`)).text();
      expect(metrics).toContain('leadforge_scraper_outbound_requests_total{outcome="success",route="direct"}');
      expect(metrics).toContain('leadforge_scraper_outbound_response_bytes_total');
      expect(metrics).toContain('leadforge_scraper_proxy_quota_remaining 10000');
    });
  });
}

describe('the proxy status with a configured proxy and account API', () => {
  let web: FixtureWeb;
  const scrapers: ScraperUnderTest[] = [];

  beforeAll(async () => {
    web = await startFixtureWeb({ sites: 3, proxyCredentials: { username: 'lead-user', password: 's3cret' }, decodoApiKey: 'decodo-key' });
  });
  afterAll(async () => {
    await Promise.all(scrapers.map((scraper) => scraper.stop()));
    await web?.close();
  });

  const statsWith = async (env: NodeJS.ProcessEnv) => {
    const scraper = await startScraperUnderTest({ kind: 'pglite', web, env });
    scrapers.push(scraper);
    return (await scraper.call('GET', '/api/admin/decodo-stats', undefined, scraper.identities.tokenFor('admin', 'admin'))).body;
  };

  it('reports Connected, the test Success, the subscription traffic and the proxy username', async () => {
    const stats = await statsWith({ DECODO_PROXY_URL: web.urls.proxy, DECODO_API_KEY: 'decodo-key' });
    expect(stats).toMatchObject({
      status: 'Connected',
      connection_test: 'Success',
      balance: '21.25 GB of 25 GB left - residential proxies subscription traffic, valid until 2026-01-01',
      username: 'lead-user',
      error: null,
      note: null,
    });
  });

  it('reports a proxy that refuses the credentials and an account API that refuses the key', async () => {
    const stats = await statsWith({ DECODO_PROXY_URL: web.urls.proxy.replace('s3cret', 'wrong'), DECODO_API_KEY: 'not-the-key' });
    expect(stats).toMatchObject({ status: 'Disconnected', connection_test: 'Failed', username: 'lead-user' });
    expect(stats.error).toContain('The proxy connection test failed');
    expect(stats.error).toContain('Could not read the Decodo subscription');
    expect(stats.balance).toMatch(/^Unknown - /);
  });
});

describe('the in-process quota across a restart (local mode)', () => {
  it('keeps the quota an admin set', async () => {
    const web = await startFixtureWeb({ sites: 1 });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scraper-quota-'));
    try {
      const first = await startScraperUnderTest({ kind: 'pglite', web, env: { DATA_DIR: dataDir } });
      const token = first.identities.tokenFor('admin', 'admin');
      await first.call('POST', '/api/admin/decodo-quota', { remaining_requests: 1234 }, token);
      await first.stop();
      const second = await startScraperUnderTest({ kind: 'pglite', web, env: { DATA_DIR: dataDir } });
      const usage = await second.call('GET', '/api/admin/decodo-usage', undefined, second.identities.tokenFor('admin', 'admin'));
      expect(usage.body.quota.remaining_requests).toBe(1234);
      await second.stop();
    } finally {
      await web.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
