import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureWeb, type FixtureWeb } from '../../services/scraper/test/fixtureWeb/fixtureWeb.ts';
import { startLocalStack, type LocalStackProcess } from '../support/localStack.ts';
import { apiClient, bearer } from '../support/api.ts';
import { registerAdmin } from '../support/verifiedAdmin.ts';

/**
 * The Proxy Stats tab's calls through the gateway, on the product started as `npm start` starts
 * it. The Decodo proxy, its account API and the sites scraped are the local fixture web.
 */
describe('scraper admin endpoints through the gateway', () => {
  let web: FixtureWeb;
  let stack: LocalStackProcess;
  let api: ReturnType<typeof apiClient>;
  let admin: Record<string, string>;
  let user: Record<string, string>;

  beforeAll(async () => {
    web = await startFixtureWeb({ sites: 3, proxyCredentials: { username: 'leadforge-user', password: 'p4ss' }, decodoApiKey: 'account-key' });
    stack = await startLocalStack({
      env: {
        ADMIN_EMAILS: 'boss@example.com',
        DECODO_PROXY_URL: web.urls.proxy,
        DECODO_PROXY_CHECK_URL: web.urls.proxyCheck,
        DECODO_API_BASE: web.urls.decodoApi,
        DECODO_API_KEY: 'account-key',
        // The fixture web listens on loopback; the cloud metadata address stays refused regardless.
        SCRAPER_ALLOW_PRIVATE_NETWORKS: 'true',
      },
    });
    api = apiClient(stack.url);
    admin = bearer((await registerAdmin(api, stack.dataDir, { name: 'Boss', email: 'boss@example.com', password: 'secret123' })).token);
    const plain = await api('POST', '/api/auth/register', { name: 'Plain', email: 'plain@example.com', password: 'secret123' });
    user = bearer(plain.body.access_token);
  }, 180_000);
  afterAll(async () => {
    await stack?.stop();
    await web?.close();
  });

  it('refuses anonymous and non-admin callers at the gateway', async () => {
    for (const [method, path] of [['GET', '/api/admin/decodo-stats'], ['GET', '/api/admin/decodo-usage'], ['POST', '/api/admin/decodo-quota'], ['POST', '/api/admin/decodo-reset-stats'], ['POST', '/api/scrape']]) {
      const body = method === 'GET' ? undefined : {};
      expect({ path, status: (await api(method, path, body)).status }).toEqual({ path, status: 401 });
      expect({ path, status: (await api(method, path, body, user)).status }).toEqual({ path, status: 403 });
    }
  });

  it('shows the proxy connected, its test, the subscription traffic and the username', async () => {
    const stats = await api('GET', '/api/admin/decodo-stats', undefined, admin);
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({
      status: 'Connected',
      connection_test: 'Success',
      balance: '21.25 GB of 25 GB left - residential proxies subscription traffic, valid until 2026-01-01',
      username: 'leadforge-user',
      error: null,
    });
    expect(web.proxied.connects).toBeGreaterThan(0);
  });

  it('scrapes through the proxy, counts it in the usage and the quota, and resets', async () => {
    await api('POST', '/api/admin/decodo-reset-stats', undefined, admin);
    const quota = await api('POST', '/api/admin/decodo-quota', { remaining_requests: 500 }, admin);
    expect(quota.body).toEqual({ message: 'Quota updated: 500 proxy requests remaining', remaining_requests: 500 });

    const html = await api('POST', '/api/scrape', { url: `${web.origin}/` }, admin);
    expect(html.status).toBe(200);
    expect(html.body).toMatchObject({ url: `${web.origin}/`, data: { title: '', status: 200, emails: [], phones: [] } });
    const json = await api('POST', '/api/scrape', { url: `${web.urls.nominatim}/search?q=London&format=jsonv2` }, admin);
    expect(json.body.data[0]).toMatchObject({ name: 'London', address: { country_code: 'gb' } });

    const usage = await api('GET', '/api/admin/decodo-usage', undefined, admin);
    expect(usage.body).toMatchObject({ total_successful: 2, total_failed: 0, success_rate: 100, total_requests: 2, quota: { remaining_requests: 498 } });
    expect(usage.body.top_domains).toEqual([{ domain: '127.0.0.1', count: 2 }]);

    const reset = await api('POST', '/api/admin/decodo-reset-stats', undefined, admin);
    expect(reset.body.message).toBe('Usage statistics reset; quota restored to 10,000 requests');
    const after = await api('GET', '/api/admin/decodo-usage', undefined, admin);
    expect(after.body).toMatchObject({ total_requests: 0, quota: { remaining_requests: 10_000 }, top_domains: [] });
  });

  it('refuses what the SSRF guard forbids, and bad input, with a detail', async () => {
    const cases: [unknown, number, RegExp][] = [
      [{ url: 'http://169.254.169.254/latest/meta-data/' }, 400, /cloud metadata address/],
      [{ url: 'file:///etc/passwd' }, 400, /Only http and https URLs/],
      [{ url: '' }, 400, /^Please enter a URL to scrape$/],
      [{ nothing: true }, 400, /^url is required$/],
    ];
    for (const [body, status, detail] of cases) {
      const answer = await api('POST', '/api/scrape', body, admin);
      expect({ body, status: answer.status }).toEqual({ body, status });
      expect(answer.body.detail).toMatch(detail);
    }
    const quota = await api('POST', '/api/admin/decodo-quota', { remaining_requests: -5 }, admin);
    expect(quota).toMatchObject({ status: 400, body: { detail: 'remaining_requests must be a whole number from 0 to 1,000,000,000' } });
  });
});
