import { Type } from 'typebox';
import type { App } from '@leadforge/kit/service';
import { badRequest, notFound, principalOf, tooManyRequests } from '@leadforge/kit/http';
import {
  CreateWebhookRequest, CreatedWebhookEndpoint, ErrorBody, WebhookDeliveryList, WebhookEndpointList, WebhookId, WebhookTestQueued,
} from '@leadforge/contracts';
import type { LeadsRuntime } from '../runtime.ts';
import { checkWebhookUrl } from '../webhooks/webhookUrl.ts';
import { lockLiveAccount } from '../domain/erasedAccounts.ts';
import { MAX_PENDING_TESTS, listAttempts, pendingTestDeliveries, queueTestDelivery } from '../webhooks/webhookDeliveries.ts';
import {
  MAX_ENDPOINTS_PER_USER, countEndpoints, createEndpoint, deleteOwnEndpoint, findOwnEndpoint, listEndpoints, toEndpoint,
} from '../webhooks/webhookEndpoints.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 429: ErrorBody };
const NOT_FOUND = 'Webhook not found';

/** The user's webhook endpoints: register (secret shown once), list, delete, deliveries, send a test event. */
export async function webhookRoutes(app: App, rt: LeadsRuntime): Promise<void> {
  const { db } = rt.ctx;
  const { webhooks: config } = rt.config;
  const idOf = (request: { params: unknown }) => (request.params as { id: string }).id;

  app.post('/api/webhooks', {
    schema: { body: CreateWebhookRequest, response: { 201: CreatedWebhookEndpoint, ...errors } },
    preHandler: app.requireUser,
  }, async (request, reply) => {
    const userId = principalOf(request).id;
    const { url, events } = request.body as CreateWebhookRequest;
    const checkedUrl = await checkWebhookUrl(url, config.allowPrivateNetworks);
    const row = await db.transaction(async (trx) => {
      // Under the account's lock: the cap holds under concurrent requests, and none is stored once the account is erased.
      await lockLiveAccount(trx, userId);
      if ((await countEndpoints(trx, userId)) >= MAX_ENDPOINTS_PER_USER) {
        throw badRequest(`You can have at most ${MAX_ENDPOINTS_PER_USER} webhook endpoints. Delete one to add another.`, 'too_many_webhooks');
      }
      return createEndpoint(trx, userId, checkedUrl, events);
    });
    return reply.status(201).send({ ...toEndpoint(row), secret: row.secret });
  });

  app.get('/api/webhooks', {
    schema: { response: { 200: WebhookEndpointList, ...errors } },
    preHandler: app.requireUser,
  }, async (request) => ({ webhooks: (await listEndpoints(db, principalOf(request).id)).map(toEndpoint) }));

  app.delete('/api/webhooks/:id', {
    schema: { params: WebhookId, response: { 204: Type.Null(), ...errors } },
    preHandler: app.requireUser,
  }, async (request, reply) => {
    if (!(await deleteOwnEndpoint(db, principalOf(request).id, idOf(request)))) throw notFound(NOT_FOUND);
    return reply.status(204).send();
  });

  app.get('/api/webhooks/:id/deliveries', {
    schema: { params: WebhookId, response: { 200: WebhookDeliveryList, ...errors } },
    preHandler: app.requireUser,
  }, async (request) => {
    const endpoint = await findOwnEndpoint(db, principalOf(request).id, idOf(request));
    if (!endpoint) throw notFound(NOT_FOUND);
    return { deliveries: await listAttempts(db, endpoint.id) };
  });

  app.post('/api/webhooks/:id/test', {
    schema: { params: WebhookId, response: { 202: WebhookTestQueued, ...errors } },
    preHandler: app.requireUser,
  }, async (request, reply) => {
    const endpoint = await findOwnEndpoint(db, principalOf(request).id, idOf(request));
    if (!endpoint) throw notFound(NOT_FOUND);
    if ((await pendingTestDeliveries(db, endpoint.id)) >= MAX_PENDING_TESTS) {
      throw tooManyRequests(`${MAX_PENDING_TESTS} test events to this endpoint are still being delivered. Wait for them (see its deliveries), then try again.`);
    }
    const deliveryId = await queueTestDelivery(db, endpoint, config.retryForMs);
    rt.webhooks.wake();
    return reply.status(202).send({ delivery_id: deliveryId });
  });
}
