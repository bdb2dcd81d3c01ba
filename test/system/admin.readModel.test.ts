import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import adminService from '@leadforge/admin';
import { startService, type RunningService } from '@leadforge/kit/service';
import { SERVICE_DEFINITIONS } from '@leadforge/stack';
import { apiClient, bearer } from '../support/api.ts';
import { ADMIN_EMAIL, startProductAround, type ProductAround } from '../support/productAround.ts';

const missing = ['billing', 'scraper', 'leads', 'contact', 'admin'].filter((name) => !SERVICE_DEFINITIONS.some((def) => def.name === name));
const waiting = missing.length ? ` (waiting: ${missing.join(', ')} not yet in stack/src/services.ts)` : '';

/** The figures of a stats answer, without the moment it was computed. */
const figures = ({ generated_at: _at, ...rest }: Record<string, unknown>) => rest;

describe.skipIf(missing.length > 0)(`admin read models from the real services' events${waiting}`, () => {
  let product: ProductAround;
  let adminToken = '';
  let buyer: { id: string; token: string };
  let replica: RunningService | undefined;

  beforeAll(async () => {
    product = await startProductAround();
    adminToken = (await product.api('POST', '/api/auth/login', { email: ADMIN_EMAIL, password: 'secret123' })).body.access_token;
    buyer = await product.register('reader-buyer@example.com');
  }, 240_000);
  afterAll(async () => {
    await replica?.stop();
    await product?.close();
  });

  const asAdmin = () => bearer(adminToken);

  it('shows a registration, a purchase, a search and a contact message in the stats and the activity log', async () => {
    const { api } = product;
    const created = await api('POST', '/api/payments/create', { plan_id: 'starter' }, bearer(buyer.token));
    await api('POST', `/api/payments/test-checkout/${created.body.payment_id}/approve`);
    expect((await api('POST', '/api/payments/execute', { payment_id: created.body.payment_id }, bearer(buyer.token))).body).toMatchObject({ success: true, credits_added: 100 });
    product.setSource('twelve');
    const search = await api('POST', '/api/generate-leads', { industry: 'Dentists', location: 'Twelveton', quantity: 20 }, bearer(buyer.token));
    expect(search.status).toBe(200);
    expect(search.body.stats).toMatchObject({ total_found: 12, credits_used: 12 });
    const contact = await api('POST', '/api/contact', { name: 'Reader Visitor', email: 'reader@example.com', message: 'Read-model check', recaptcha_token: `local-test.${'c'.repeat(32)}` });
    expect(contact.status).toBeLessThan(300);

    await expect.poll(async () => (await api('GET', '/api/admin/activity-logs', undefined, asAdmin())).body.logs.map((l: { type: string }) => l.type), { timeout: 10_000 })
      .toEqual(['scrape', 'payment']);
    const logs = (await api('GET', '/api/admin/activity-logs', undefined, asAdmin())).body.logs;
    expect(logs[0]).toMatchObject({ user_id: buyer.id, details: { results_count: 12, credits_used: 12 } });
    expect(logs[1]).toMatchObject({ user_id: buyer.id, details: { amount: 19, credits: 100 } });

    const stats = (await api('GET', '/api/admin/enhanced-stats?search=reader', undefined, asAdmin())).body;
    // Bought through the built-in test checkout: test money, never revenue.
    expect(stats.stats.revenue).toMatchObject({ total: 0, purchases: 0 });
    expect(stats.stats.test_checkout).toEqual({ total: 19, purchases: 1 });
    expect(stats.stats.usage).toEqual({ total_leads_generated: 12, total_scrapes: 1 });
    expect(stats.stats.recent_purchases[0]).toMatchObject({ plan_id: 'starter', amount: 19, credits: 100, user_id: buyer.id, test: true });
    // 10 free + 100 bought - 12 used.
    expect(stats.users).toEqual([expect.objectContaining({ id: buyer.id, email: 'reader-buyer@example.com', credits: 98 })]);
    expect(stats.contact_submissions[0]).toMatchObject({ name: 'Reader Visitor', email: 'reader@example.com', message: 'Read-model check' });
  }, 90_000);

  it('gives the same stats and logs when every event is replayed into an empty admin database', async () => {
    const running = product.stack.services.find((s) => s.name === 'admin')!;
    replica = await startService(adminService, {
      env: { ...product.stack.env, ADMIN_PORT: '0', ADMIN_DATABASE_URL: '', DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'leadforge-admin-replay-')) },
      bus: running.ctx.bus,
      port: 0,
    });
    const fromRunning = apiClient(running.url);
    const fromReplica = apiClient(replica.url);
    const query = '/api/admin/enhanced-stats?users_page_size=200&contacts_page_size=200';
    const expected = figures((await fromRunning('GET', query, undefined, asAdmin())).body);
    await expect.poll(async () => figures((await fromReplica('GET', query, undefined, asAdmin())).body), { timeout: 15_000 }).toEqual(expected);
    const logs = '/api/admin/activity-logs?limit=200';
    expect((await fromReplica('GET', logs, undefined, asAdmin())).body).toEqual((await fromRunning('GET', logs, undefined, asAdmin())).body);
  }, 60_000);
});
