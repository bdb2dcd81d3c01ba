/**
 * `npm start` killed (SIGKILL) with several searches running and a payment half done, then started
 * again on the same data folder: every search resumes and completes, charged exactly its leads
 * (issue 23, defect 5). The searches' leases are made to outlast their deadline, so a restart that
 * waited for the dead process's leases, as it once did, would leave them to end with nothing.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureWeb, type FixtureWeb } from '../../services/scraper/test/fixtureWeb/fixtureWeb.ts';
import { apiClient, bearer } from '../support/api.ts';
import { fixtureWebEnv } from '../support/distributedStack.ts';
import { startLocalStack, type LocalStackProcess } from '../support/localStack.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const alive = (pid: number) => fs.existsSync(`/proc/${pid}`) && !fs.readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
const SEARCHES = 6;
const QUANTITY = 10;

describe('npm start killed with several searches running', () => {
  let web: FixtureWeb;
  let product: LocalStackProcess | undefined;
  let passed = false;

  beforeAll(async () => {
    web = await startFixtureWeb({ sites: 240, latencyMs: 200 });
  });
  afterAll(async () => {
    await product?.stop();
    await web?.close();
    if (product && passed) fs.rmSync(product.dataDir, { recursive: true, force: true });
  });

  it('resumes every search after the restart: all complete, each charged exactly its leads; the payment is granted once', async () => {
    const env = {
      ...fixtureWebEnv(web.urls),
      AUTH_REGISTER_PER_IP_PER_HOUR: '1000',
      SCRAPER_PER_HOST_DELAY_MS: '0',
      // Slow enough that every search is still running when the product is killed.
      SCRAPER_PLACE_CONCURRENCY: '2',
      SCRAPER_JOB_LEASE_MS: '600000',
    };
    product = await startLocalStack({ env });
    let api = apiClient(product.url);
    const users: Record<string, string>[] = [];
    for (let i = 0; i < SEARCHES; i++) {
      const res = await api('POST', '/api/auth/register', { name: `Crash ${i}`, email: `crash-${i}@example.com`, password: 'secret123' });
      expect(res.status).toBe(201);
      users.push(bearer(res.body.access_token));
    }
    const balance = async (auth: Record<string, string>) => (await api('GET', '/api/auth/me', undefined, auth)).body.credits as number;
    for (const auth of users) while ((await balance(auth)) !== 10) await sleep(100);

    const searches: string[] = [];
    for (const auth of users) {
      const res = await api('POST', '/api/lead-searches', { industry: 'Dentists', location: 'London', quantity: QUANTITY }, auth);
      expect(res.status).toBe(201);
      searches.push(res.body.id);
    }
    // A purchase approved at the checkout but not yet captured when the product dies.
    const order = await api('POST', '/api/payments/create', { plan_id: 'starter' }, users[0]);
    expect(order.status).toBe(200);
    expect((await api('POST', `/api/payments/test-checkout/${order.body.payment_id}/approve`)).status).toBeLessThan(300);

    const states = async () => Promise.all(searches.map(async (id, i) => (await api('GET', `/api/lead-searches/${id}`, undefined, users[i])).body));
    let before = await states();
    while (before.filter((s) => s.leads_count > 0).length < 2) {
      await sleep(100);
      before = await states();
    }
    process.kill(product.pid, 'SIGKILL');
    while (alive(product.pid)) await sleep(50);
    expect(before.map((s) => s.status)).toEqual(searches.map(() => 'running'));

    product = await startLocalStack({ env, dataDir: product.dataDir });
    api = apiClient(product.url);
    const executed = await api('POST', '/api/payments/execute', { payment_id: order.body.payment_id }, users[0]);
    expect(executed.body).toMatchObject({ success: true, credits_added: 100 });

    let after = await states();
    while (after.some((s) => s.status === 'running')) {
      await sleep(500);
      after = await states();
    }
    const summary = (s: { status: string; leads_count: number; credits_used: number }) => ({ status: s.status, leads: s.leads_count, charged: s.credits_used });
    console.info(`[crash] before the kill: ${before.map((s) => s.leads_count).join(', ')} leads; after the restart: ${after.map((s) => `${s.reason} ${s.leads_count}`).join(', ')}`);
    expect(after.map(summary)).toEqual(searches.map(() => ({ status: 'completed', leads: QUANTITY, charged: QUANTITY })));
    for (const [i, id] of searches.entries()) {
      const exported = await api('GET', `/api/lead-searches/${id}/export.json`, undefined, users[i]);
      const leads = exported.body.leads as Array<{ company: string; email?: string; phone?: string }>;
      expect(new Set(leads.map((lead) => `${lead.company}|${lead.email ?? ''}|${lead.phone ?? ''}`)).size).toBe(QUANTITY);
    }
    // Billing settles each search after it ends: wait for the figures to land, then hold them to the cent.
    const expected = users.map((_, i) => 10 - QUANTITY + (i === 0 ? 100 : 0));
    const balances = async () => Promise.all(users.map(balance));
    while ((await balances()).some((seen, i) => seen !== expected[i])) await sleep(200);
    expect(await balances()).toEqual(expected);
    passed = true;
  }, 600_000);
});
