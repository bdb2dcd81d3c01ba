import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor, waitForMail } from '@leadforge/testing';
import { webhookSignature } from '../../services/leads/src/webhooks/webhookSignature.ts';
import { bearer } from '../support/api.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.ts';
import { startProductAround, type ProductAround } from '../support/productAround.ts';

describe('monitors end to end through the gateway: a world that gains two businesses between runs', () => {
  let product: ProductAround;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    [product, receiver] = await Promise.all([
      startProductAround({
        env: {
          LEADS_WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
          LEADS_WEBHOOK_POLL_MS: '100',
          // Every site of the world must be read in each run (a site given up on under load would be "new" the next time).
          SCRAPER_TIMEOUT_MS: '60000',
        },
      }),
      startWebhookReceiver(),
    ]);
  }, 240_000);
  afterAll(async () => {
    await product?.close();
    await receiver?.close();
  });

  const api = (...args: Parameters<ProductAround['api']>) => product.api(...args);
  const ended = async (searchId: string, token: string) =>
    waitFor(async () => (await api('GET', `/api/lead-searches/${searchId}`, undefined, bearer(token))).body, {
      until: (search) => search.status !== 'running' && (search.credits_used === search.leads_count || search.status !== 'completed'),
      timeoutMs: 60_000,
      what: `search ${searchId} to end and settle`,
    });
  const runs = async (monitorId: string, headers: Record<string, string>) => (await api('GET', `/api/monitors/${monitorId}/runs`, undefined, headers)).body.runs;

  it('the first run delivers the area, the second exactly the two new businesses for 2 credits, the third nothing for nothing; webhook, email and API key', async () => {
    product.setSource('twelve');
    const user = await product.register('monitor-e2e@example.com');
    await product.setCredits(user.id, user.token, 100);
    const session = bearer(user.token);
    const hook = await api('POST', '/api/webhooks', { url: receiver.url, events: ['monitor.run.completed'] }, session);
    expect(hook.status).toBe(201);
    // The API key acts as its user on every monitor route.
    const key = await api('POST', '/api/api-keys', { name: 'monitors', expires_in_days: 7 }, session);
    const keyed = { 'x-api-key': key.body.key as string };

    const created = await api('POST', '/api/monitors', { industry: 'Dentists', location: 'London', max_leads_per_run: 30, frequency: 'daily', notify_email: true }, keyed);
    expect(created.status).toBe(201);
    const monitor = created.body;
    expect(monitor).toMatchObject({ status: 'active', notify_email: true, frequency: 'daily' });
    expect((await api('GET', '/api/monitors', undefined, session)).body.monitors.map((m: { id: string }) => m.id)).toEqual([monitor.id]);
    const stranger = await product.register('monitor-stranger@example.com');
    expect((await api('GET', `/api/monitors/${monitor.id}`, undefined, bearer(stranger.token))).status).toBe(404);

    const first = await api('POST', `/api/monitors/${monitor.id}/run`, undefined, keyed);
    expect(first.status).toBe(202);
    const firstSearch = await ended(first.body.search_id, user.token);
    expect(firstSearch).toMatchObject({ monitor_id: monitor.id, status: 'completed', leads_count: 12, credits_used: 12 });
    expect(await product.balance(user.token)).toBe(88);

    product.setSource('fourteen');
    const second = await api('POST', `/api/monitors/${monitor.id}/run`, undefined, session);
    const secondSearch = await ended(second.body.search_id, user.token);
    expect(secondSearch).toMatchObject({ monitor_id: monitor.id, status: 'completed', leads_count: 2, credits_used: 2 });
    expect(secondSearch.leads.map((l: { company: string }) => l.company).sort()).toEqual(['Kingsway Bakery 13', 'Riverside Bakery 14']);
    expect(await product.balance(user.token)).toBe(86);

    const third = await api('POST', `/api/monitors/${monitor.id}/run`, undefined, keyed);
    const thirdSearch = await ended(third.body.search_id, user.token);
    expect(thirdSearch).toMatchObject({ status: 'completed', leads_count: 0, credits_used: 0 });
    expect(await product.balance(user.token)).toBe(86);
    expect((await runs(monitor.id, keyed)).map((r: { new_leads: number; credits_used: number }) => [r.new_leads, r.credits_used])).toEqual([[0, 0], [2, 2], [12, 12]]);
    // The runs are searches like any other, in the history.
    const history = (await api('GET', '/api/lead-searches', undefined, session)).body.searches;
    expect(history.filter((s: { monitor_id?: string }) => s.monitor_id === monitor.id)).toHaveLength(3);

    // The webhook: one signed delivery per run, carrying the run's new businesses.
    const deliveries = await receiver.waitFor(3);
    const secret = hook.body.secret as string;
    for (const delivery of deliveries) {
      expect(delivery.headers['leadforge-event']).toBe('monitor.run.completed');
      const signature = String(delivery.headers['leadforge-signature']);
      const t = Number(signature.match(/^t=(\d+),/)![1]);
      expect(signature).toBe(webhookSignature(secret, delivery.rawBody, new Date(t * 1000)));
    }
    const bySearch = new Map(deliveries.map((d) => [(d.body as any).data.search_id, (d.body as any).data]));
    expect(bySearch.get(second.body.search_id)).toMatchObject({ monitor_id: monitor.id, credits_used: 2 });
    expect(bySearch.get(second.body.search_id).new_leads.map((l: { company: string }) => l.company).sort()).toEqual(['Kingsway Bakery 13', 'Riverside Bakery 14']);
    expect(bySearch.get(third.body.search_id).new_leads).toEqual([]);

    // The email: "2 new dentists in London", linking the run's leads (a run with nothing new sends none).
    const mail = await waitForMail(path.join(product.stack.env.DATA_DIR!, 'mail'), 'monitor-e2e@example.com', /^2 new dentists in London$/, 30_000);
    expect(mail.links.some((link) => link.endsWith(`/monitors?run=${second.body.search_id}`))).toBe(true);
  }, 240_000);
});
