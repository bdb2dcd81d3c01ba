import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '@leadforge/kit/service';
import { engineLead } from './support/engineStandIn.ts';
import { caller, startLeads, startSurroundings, type Surroundings } from './support/leadsUnderTest.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/support/webhookReceiver.ts';
import { queueSearchDeliveries } from '../src/webhooks/webhookDeliveries.ts';
import { findSearch } from '../src/domain/searchRecord.ts';

const ENV = {
  // The receiver is on loopback, which the SSRF guard refuses outside tests.
  LEADS_WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
  LEADS_WEBHOOK_POLL_MS: '100',
  LEADS_WEBHOOK_RETRY_BASE_MS: '200',
  LEADS_WEBHOOK_TIMEOUT_MS: '1000',
};

describe('webhook deliveries across a restart of the leads service (PGlite)', () => {
  let around: Surroundings;
  let receiver: WebhookReceiver;
  let svc: RunningService;
  let dataDir: string;
  const call = caller(() => svc.url);

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'leads-webhooks-'));
    [around, receiver] = await Promise.all([startSurroundings(), startWebhookReceiver()]);
    svc = await startLeads('pglite', around, { ...ENV, DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await svc?.stop();
    await around?.close();
    await receiver?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a delivery queued before the stop is sent after the start, with the same delivery id, and never doubled', async () => {
    const userId = 'user-webhooks-restart';
    around.billing.setBalance(userId, 10);
    const token = around.auth.tokenFor(userId);
    const endpoint = (await call('POST', '/api/webhooks', { url: receiver.url, events: ['lead_search.completed'] }, token)).body;
    receiver.answerAlways(503);

    const started = await call('POST', '/api/lead-searches', { industry: 'Dentists', location: 'Springfield', quantity: 1 }, token);
    await around.engine.waitForRequest(started.body.id);
    // The quantity reached: the search ends, its books close and the delivery is queued in that transaction.
    await around.engine.leads(started.body.id, [engineLead(1)]);
    await receiver.waitFor(1);

    await svc.stop();
    const whileDown = receiver.received.length;
    receiver.answerAlways(undefined);
    svc = await startLeads('pglite', around, { ...ENV, DATA_DIR: dataDir });

    await expect.poll(async () => (await call('GET', `/api/webhooks/${endpoint.id}/deliveries`, undefined, token)).body.deliveries[0]?.delivery_status, { timeout: 10_000 }).toBe('delivered');
    expect(receiver.received.length).toBe(whileDown + 1);
    const ids = new Set(receiver.received.map((hook) => hook.headers['leadforge-delivery']));
    expect(ids.size).toBe(1);
    expect(receiver.received.at(-1)!.body).toMatchObject({ event: 'lead_search.completed', data: { id: started.body.id, status: 'completed', leads_count: 1 } });

    // Settling again (a second replica, the sweeper) cannot queue it twice.
    const db = svc.ctx.db;
    expect(await queueSearchDeliveries(db, (await findSearch(db, started.body.id))!, 'http://localhost', 60_000)).toBe(0);
    expect(await db('webhook_deliveries').where({ search_id: started.body.id })).toHaveLength(1);
  }, 60_000);
});
