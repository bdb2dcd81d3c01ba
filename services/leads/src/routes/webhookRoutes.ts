import type { App } from '@leadforge/kit/service';
import { badRequest, handle, notFound, principalOf, tooManyRequests } from '@leadforge/kit/http';
import { WEBHOOK_ROUTES } from '@leadforge/contracts';
import type { LeadsRuntime } from '../runtime.ts';
import { checkWebhookUrl } from '../webhooks/webhookUrl.ts';
import { lockLiveAccount } from '../domain/erasedAccounts.ts';
import { MAX_PENDING_TESTS, listAttempts, pendingTestDeliveries, queueTestDelivery } from '../webhooks/webhookDeliveries.ts';
import {
  MAX_ENDPOINTS_PER_USER, countEndpoints, createEndpoint, deleteOwnEndpoint, findOwnEndpoint, listEndpoints, toEndpoint,
} from '../webhooks/webhookEndpoints.ts';

const NOT_FOUND = 'Webhook not found';

/** The user's webhook endpoints: register (secret shown once), list, delete, deliveries, send a test event. */
export async function webhookRoutes(app: App, rt: LeadsRuntime): Promise<void> {
  const { db } = rt.ctx;
  const { webhooks: config } = rt.config;
  handle(app, WEBHOOK_ROUTES.create, async (request, reply) => {
    const userId = principalOf(request).id;
    const { url, events } = request.body;
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

  handle(app, WEBHOOK_ROUTES.list, async (request) => ({ webhooks: (await listEndpoints(db, principalOf(request).id)).map(toEndpoint) }));

  handle(app, WEBHOOK_ROUTES.delete, async (request, reply) => {
    if (!(await deleteOwnEndpoint(db, principalOf(request).id, request.params.id))) throw notFound(NOT_FOUND);
    return reply.status(204).send(null);
  });

  handle(app, WEBHOOK_ROUTES.deliveries, async (request) => {
    const endpoint = await findOwnEndpoint(db, principalOf(request).id, request.params.id);
    if (!endpoint) throw notFound(NOT_FOUND);
    return { deliveries: await listAttempts(db, endpoint.id) };
  });

  handle(app, WEBHOOK_ROUTES.test, async (request, reply) => {
    const endpoint = await findOwnEndpoint(db, principalOf(request).id, request.params.id);
    if (!endpoint) throw notFound(NOT_FOUND);
    if ((await pendingTestDeliveries(db, endpoint.id)) >= MAX_PENDING_TESTS) {
      throw tooManyRequests(`${MAX_PENDING_TESTS} test events to this endpoint are still being delivered. Wait for them (see its deliveries), then try again.`);
    }
    const deliveryId = await queueTestDelivery(db, endpoint, config.retryForMs);
    rt.webhooks.wake();
    return reply.status(202).send({ delivery_id: deliveryId });
  });
}
