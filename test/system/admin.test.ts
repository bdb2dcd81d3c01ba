import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, SERVICES, type RouteEntry, type ServiceName } from '@leadforge/contracts';
import { freePort } from '../../stack/src/freePort.ts';
import { startLocalStack, type LocalStackProcess } from '../support/localStack.ts';
import { apiClient, bearer, type ApiResponse } from '../support/api.ts';
import { registerAdmin } from '../support/verifiedAdmin.ts';

const ADMIN_ROUTES = ROUTES.filter((r) => r.access === 'admin');
const ADMIN_EMAIL = 'chief@example.com';
const routeKey = (r: RouteEntry) => `${r.method} ${r.path}`;

interface Sample {
  body?: unknown;
  /** Why this route is not called as an admin here (its effects belong to its owner's tests). */
  notAsAdmin?: string;
}

interface Ids {
  target: string;
  scrapeUrl: string;
}

/** A valid request per admin route (for the 2xx column); a route without one is reported as not covered. */
const SAMPLES: Record<string, (ids: Ids) => Sample> = {
  'GET /api/admin/enhanced-stats': () => ({}),
  'GET /api/admin/activity-logs': () => ({}),
  'POST /api/admin/update-credits': (ids) => ({ body: { user_id: ids.target, credits_change: 1 } }),
  'POST /api/admin/user-action': (ids) => ({ body: { user_id: ids.target, action: 'promote' } }),
  'GET /api/admin/paypal-config': () => ({}),
  'POST /api/admin/paypal-config': () => ({ body: { sandbox_mode: true } }),
  'GET /api/admin/refunds': () => ({}),
  'POST /api/admin/refunds/:requestId/approve': () => ({ body: { reason: 'sample' }, notAsAdmin: 'decides a real refund request; covered by test/system/refunds.test.ts' }),
  'POST /api/admin/refunds/:requestId/decline': () => ({ body: { reason: 'sample' }, notAsAdmin: 'decides a real refund request; covered by test/system/refunds.test.ts' }),
  'GET /api/admin/decodo-stats': () => ({}),
  'GET /api/admin/decodo-usage': () => ({}),
  'POST /api/admin/decodo-quota': () => ({ body: { remaining_requests: 10000 } }),
  'POST /api/admin/decodo-reset-stats': () => ({}),
  'POST /api/scrape': (ids) => ({ body: { url: ids.scrapeUrl } }),
  'GET /api/admin/affiliate-payouts': () => ({}),
  'POST /api/admin/affiliate-payouts': () => ({ body: {}, notAsAdmin: 'runs a real payout batch; covered by the affiliate service tests' }),
  'GET /api/admin/parked-work': () => ({}),
  // Nothing is parked in a fresh product: the replay runs through billing and replays nothing.
  'POST /api/admin/parked-work/replay': () => ({ body: { service: 'billing', kind: 'outbox' } }),
};

describe('admin through the local stack, started as `npm start` starts it', () => {
  let stack: LocalStackProcess;
  let api: ReturnType<typeof apiClient>;
  let target: http.Server;
  const servicePorts = new Map<ServiceName, number>();
  const tokens = { admin: '', user: '' };
  const ids: Ids = { target: '', scrapeUrl: '' };
  let adminId = '';
  const notCovered: string[] = [];

  const direct = (service: ServiceName) => apiClient(`http://127.0.0.1:${servicePorts.get(service)}`);
  const register = async (name: string, email: string) => {
    const res = await api('POST', '/api/auth/register', { name, email, password: 'secret123' });
    expect(res.status).toBe(201);
    return res.body as { user: { id: string }; access_token: string };
  };

  beforeAll(async () => {
    // A page for the scraper test to fetch, on loopback (the stack allows private networks for this test).
    target = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ origin: '127.0.0.1', ok: true })));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    ids.scrapeUrl = `http://127.0.0.1:${(target.address() as { port: number }).port}/json`;
    // Fixed ports, so the test can also call each service directly, around the gateway.
    const env: NodeJS.ProcessEnv = { ADMIN_EMAILS: ADMIN_EMAIL, SCRAPER_ALLOW_PRIVATE_NETWORKS: 'true', AUTH_REGISTER_PER_IP_PER_HOUR: '1000' };
    for (const service of SERVICES) {
      const port = await freePort();
      servicePorts.set(service, port);
      env[`${service.toUpperCase()}_PORT`] = String(port);
    }
    stack = await startLocalStack({ env });
    api = apiClient(stack.url);
    const admin = await registerAdmin(api, stack.dataDir, { name: 'Chief Admin', email: ADMIN_EMAIL, password: 'secret123' });
    tokens.admin = admin.token;
    adminId = admin.id;
    tokens.user = (await register('Plain User', 'plain.user@example.com')).access_token;
    ids.target = (await register('Target User', 'target.user@example.com')).user.id;
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    target?.close();
    if (notCovered.length) console.log(`Admin authorisation matrix, not covered:\n  ${notCovered.join('\n  ')}`);
  });

  it('refuses every admin route of the route table at the gateway: 401 without a token, 403 for a user', async () => {
    expect(ADMIN_ROUTES.map(routeKey)).toEqual(expect.arrayContaining([
      'GET /api/admin/enhanced-stats', 'GET /api/admin/activity-logs', 'POST /api/admin/update-credits', 'POST /api/admin/user-action', 'POST /api/scrape',
    ]));
    for (const route of ADMIN_ROUTES) {
      const body = SAMPLES[routeKey(route)]?.(ids).body;
      const anonymous = await api(route.method, route.path, body);
      const asUser = await api(route.method, route.path, body, bearer(tokens.user));
      expect({ route: routeKey(route), anonymous: anonymous.status, user: asUser.status }).toEqual({ route: routeKey(route), anonymous: 401, user: 403 });
    }
  });

  it('refuses every admin route directly at its owner service: 401 without a token, 403 for a user', async () => {
    for (const route of ADMIN_ROUTES) {
      const call = direct(route.service);
      const body = SAMPLES[routeKey(route)]?.(ids).body;
      const anonymous = await call(route.method, route.path, body);
      const asUser = await call(route.method, route.path, body, bearer(tokens.user));
      expect({ route: routeKey(route), anonymous: anonymous.status, user: asUser.status }).toEqual({ route: routeKey(route), anonymous: 401, user: 403 });
    }
  });

  it('lets an admin through (2xx) at the gateway and at the service for every admin route', async () => {
    const covered: string[] = [];
    for (const route of ADMIN_ROUTES) {
      const key = routeKey(route);
      const sample = SAMPLES[key]?.(ids);
      if (!sample || sample.notAsAdmin) {
        notCovered.push(`${key} as admin: ${sample?.notAsAdmin ?? 'no sample request in test/system/admin.test.ts'}`);
        continue;
      }
      const viaGateway: ApiResponse = await api(route.method, route.path, sample.body, bearer(tokens.admin));
      const atService: ApiResponse = await direct(route.service)(route.method, route.path, sample.body, bearer(tokens.admin));
      expect({ key, gateway: viaGateway.status < 300 && viaGateway.status >= 200, detail: viaGateway.body?.detail }).toEqual({ key, gateway: true, detail: undefined });
      expect({ key, service: atService.status < 300 && atService.status >= 200, detail: atService.body?.detail }).toEqual({ key, service: true, detail: undefined });
      covered.push(key);
    }
    expect(covered).toEqual(expect.arrayContaining(['GET /api/admin/enhanced-stats', 'GET /api/admin/activity-logs', 'POST /api/admin/user-action']));
  });

  it('shows registered users in the stats, refuses self-demotion and answers 404 for a missing user, through the gateway', async () => {
    const stats = await api('GET', '/api/admin/enhanced-stats?search=example.com', undefined, bearer(tokens.admin));
    expect(stats.status).toBe(200);
    expect(stats.body.stats.users.total).toBeGreaterThanOrEqual(3);
    expect(stats.body.stats.users.admins).toBeGreaterThanOrEqual(1);
    expect(stats.body.users.map((u: { email: string }) => u.email)).toEqual(expect.arrayContaining([ADMIN_EMAIL, 'plain.user@example.com', 'target.user@example.com']));
    expect(stats.body.stats.daily.at(-1).signups).toBeGreaterThanOrEqual(3);

    const self = await api('POST', '/api/admin/user-action', { user_id: adminId, action: 'demote' }, bearer(tokens.admin));
    expect(self).toMatchObject({ status: 400, body: { detail: 'You cannot demote your own account' } });
    const missing = await api('POST', '/api/admin/user-action', { user_id: '00000000-0000-7000-8000-000000000000', action: 'deactivate' }, bearer(tokens.admin));
    expect(missing).toMatchObject({ status: 404, body: { detail: 'User not found' } });
    const log = await api('GET', '/api/admin/activity-logs?type=admin_action', undefined, bearer(tokens.admin));
    expect(log.body.logs.map((l: { details: { result: string } }) => l.details.result)).toEqual(expect.arrayContaining(['refused']));
  });

  it('adjusts credits through the real billing service, never below zero', async () => {
    const user = await register('Credit Target', 'credit.target@example.com');
    // The signup grant arrives by event; wait for it so the balance below is known.
    await expect.poll(async () => (await api('GET', '/api/auth/me', undefined, bearer(user.access_token))).body.credits, { timeout: 5000 }).toBe(10);
    const add = await api('POST', '/api/admin/update-credits', { user_id: user.user.id, credits_change: 15 }, bearer(tokens.admin));
    expect(add).toMatchObject({ status: 200, body: { message: 'Added 15 credits to Credit Target. New balance: 25.' } });
    const tooMuch = await api('POST', '/api/admin/update-credits', { user_id: user.user.id, credits_change: -26 }, bearer(tokens.admin));
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.detail).toMatch(/^Cannot remove 26 credits/);
    const removals = await Promise.all(Array.from({ length: 4 }, () => api('POST', '/api/admin/update-credits', { user_id: user.user.id, credits_change: -9 }, bearer(tokens.admin))));
    expect(removals.map((r) => r.status).sort()).toEqual([200, 200, 400, 400]);
    const me = await api('GET', '/api/auth/me', undefined, bearer(user.access_token));
    expect(me.body.credits).toBe(7);
    const listed = await api('GET', '/api/admin/enhanced-stats?include=users&search=credit.target', undefined, bearer(tokens.admin));
    expect(listed.body.users[0].credits).toBe(me.body.credits);
  });

  it('shows a purchase in the stats and the activity log', async () => {
    const buyer = await register('Buyer', 'buyer@example.com');
    const created = await api('POST', '/api/payments/create', { plan_id: 'growth' }, bearer(buyer.access_token));
    expect(created.status).toBe(200);
    expect((await api('POST', `/api/payments/test-checkout/${created.body.payment_id}/approve`)).status).toBeLessThan(300);
    const executed = await api('POST', '/api/payments/execute', { payment_id: created.body.payment_id }, bearer(buyer.access_token));
    expect(executed.body).toMatchObject({ success: true, credits_added: 330 });
    await expect.poll(async () => (await api('GET', '/api/admin/activity-logs?type=payment', undefined, bearer(tokens.admin))).body.logs[0]?.user_id, { timeout: 5000 }).toBe(buyer.user.id);
    const stats = await api('GET', '/api/admin/enhanced-stats?include=stats', undefined, bearer(tokens.admin));
    expect(stats.body.stats.recent_purchases[0]).toMatchObject({ plan_id: 'growth', amount: 49, credits: 330, user_id: buyer.user.id, test: true });
    // The built-in test checkout moved no money: counted as test money, never as revenue.
    expect(stats.body.stats.test_checkout.total).toBeGreaterThanOrEqual(49);
    expect(stats.body.stats.revenue.total).toBe(0);
  });

  it('shows a contact form submission', async () => {
    const sent = await api('POST', '/api/contact', { name: 'Visitor', email: 'visitor@example.com', message: 'Hello admin', recaptcha_token: `local-test.${'a'.repeat(32)}` });
    expect(sent.status).toBeLessThan(300);
    await expect.poll(async () => (await api('GET', '/api/admin/enhanced-stats?include=contact_submissions', undefined, bearer(tokens.admin))).body.contact_submissions[0]?.message, { timeout: 5000 }).toBe('Hello admin');
  });
});
