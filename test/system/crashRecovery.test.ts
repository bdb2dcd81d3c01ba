/**
 * `npm start` killed (SIGKILL) with several searches running and a payment half done, then started
 * again on the same data folder: every search resumes and completes, charged exactly its leads
 * (issue 23, defect 5). The searches' leases are made to outlast their deadline, so a restart that
 * waited for the dead process's leases, as it once did, would leave them to end with nothing.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureWeb, type FixtureWeb } from '../../services/scraper/test/fixtureWeb/fixtureWeb.ts';
import { waitFor } from '@leadforge/testing';
import { apiClient } from '../support/api.ts';
import { fixtureWebEnv } from '../support/distributedStack.ts';
import { startLocalStack, type LocalStackProcess } from '../support/localStack.ts';
import { processAlive } from '../support/productProcess.ts';
import { creditsOf, startSearchesInFlight } from '../support/searchesInFlight.ts';

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
    const { users, searches } = await startSearchesInFlight(api, { count: SEARCHES, quantity: QUANTITY, emailPrefix: 'crash' });

    // A purchase approved at the checkout but not yet captured when the product dies.
    const order = await api('POST', '/api/payments/create', { plan_id: 'starter' }, users[0]);
    expect(order.status).toBe(200);
    expect((await api('POST', `/api/payments/test-checkout/${order.body.payment_id}/approve`)).status).toBeLessThan(300);

    const states = async () => Promise.all(searches.map(async (id, i) => (await api('GET', `/api/lead-searches/${id}`, undefined, users[i])).body));
    const before = await waitFor(states, { until: (all) => all.filter((s) => s.leads_count > 0).length >= 2, timeoutMs: 120_000, intervalMs: 100, what: 'two searches with leads' });
    process.kill(product.pid, 'SIGKILL');
    await waitFor(() => !processAlive(product!.pid), { what: 'the killed product to be gone' });
    expect(before.map((s) => s.status)).toEqual(searches.map(() => 'running'));

    product = await startLocalStack({ env, dataDir: product.dataDir });
    api = apiClient(product.url);
    const executed = await api('POST', '/api/payments/execute', { payment_id: order.body.payment_id }, users[0]);
    expect(executed.body).toMatchObject({ success: true, credits_added: 100 });

    const after = await waitFor(states, { until: (all) => all.every((s) => s.status !== 'running'), timeoutMs: 300_000, intervalMs: 500, what: 'every search to end' });
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
    const balances = async () => Promise.all(users.map((auth) => creditsOf(api, auth)));
    expect(await waitFor(balances, { until: (seen) => seen.every((credits, i) => credits === expected[i]), timeoutMs: 60_000, intervalMs: 200, what: 'the settled balances' })).toEqual(expected);
    passed = true;
  }, 600_000);
});
