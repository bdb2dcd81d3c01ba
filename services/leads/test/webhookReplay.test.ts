import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARKED_WORK_PATH } from '@leadforge/contracts';
import { INTERNAL_TOKEN_HEADER } from '@leadforge/kit/http';
import type { RunningService } from '@leadforge/kit/service';
import { caller, startLeads, startSurroundings, type Surroundings } from './support/leadsUnderTest.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/support/webhookReceiver.ts';

describe('a failed webhook delivery is parked work: listed with its last error, replayed, then delivered (PGlite)', () => {
  let around: Surroundings;
  let receiver: WebhookReceiver;
  let svc: RunningService;
  const call = caller(() => svc.url);
  const internal = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const answer = await fetch(`${svc.url}${path}`, {
      method,
      headers: { [INTERNAL_TOKEN_HEADER]: svc.ctx.config.internalToken, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: answer.status, body: await answer.json() };
  };

  beforeAll(async () => {
    [around, receiver] = await Promise.all([startSurroundings(), startWebhookReceiver()]);
    // Given up on a second after its event: the failing endpoint has its delivery parked at once.
    svc = await startLeads('pglite', around, {
      LEADS_WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true', LEADS_WEBHOOK_POLL_MS: '100', LEADS_WEBHOOK_RETRY_BASE_MS: '100', LEADS_WEBHOOK_RETRY_FOR_MS: '1000', LEADS_WEBHOOK_TIMEOUT_MS: '1000',
    });
  });
  afterAll(async () => {
    await svc?.stop();
    await around?.close();
    await receiver?.close();
  });

  it('parks the delivery, lists it, and a replay once the endpoint is fixed delivers it, its attempts numbered on', async () => {
    const token = around.auth.tokenFor('user-webhook-replay');
    const endpoint = (await call('POST', '/api/webhooks', { url: receiver.url, events: ['lead_search.completed'] }, token)).body;
    receiver.answerAlways(503);
    const { delivery_id: deliveryId } = (await call('POST', `/api/webhooks/${endpoint.id}/test`, undefined, token)).body;
    const attempts = async () => (await call('GET', `/api/webhooks/${endpoint.id}/deliveries`, undefined, token)).body.deliveries as Array<{ attempt: number; delivery_status: string; status_code: number | null }>;
    await expect.poll(async () => (await attempts())[0]?.delivery_status, { timeout: 15_000 }).toBe('failed');
    const failed = await attempts();

    const listed = await internal('GET', PARKED_WORK_PATH);
    expect(listed.body).toEqual({
      total: 1,
      items: [{ kind: 'queue', name: 'webhooks', key: deliveryId, what: 'webhooks', error: 'The endpoint answered 503', attempts: failed.length, parked_at: expect.any(String), replayable: true }],
    });

    receiver.answerAlways(undefined);
    const before = receiver.received.length;
    expect(await internal('POST', `${PARKED_WORK_PATH}/replay`, { kind: 'queue', queue: 'webhooks', keys: [deliveryId] }))
      .toEqual({ status: 200, body: { replayed: 1, kept: [], message: '1 piece of work in leads\'s webhooks will run again' } });
    await expect.poll(async () => (await attempts())[0]?.delivery_status, { timeout: 15_000 }).toBe('delivered');
    expect(receiver.received.length).toBe(before + 1);
    // The replayed attempt follows the failed ones in the user's list.
    expect((await attempts()).map((a) => a.attempt)).toEqual(Array.from({ length: failed.length + 1 }, (_, i) => failed.length + 1 - i));
    expect((await internal('GET', PARKED_WORK_PATH)).body).toEqual({ items: [], total: 0 });
  });
});
