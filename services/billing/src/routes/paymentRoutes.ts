import type { App } from '@leadforge/kit/service';
import { handle, principalOf, rateLimited } from '@leadforge/kit/http';
import { ACTIVITY_DAYS_DEFAULT, CreatePaymentRequest, PAYMENT_ROUTES } from '@leadforge/contracts';
import { creditActivity } from '../domain/creditActivity.ts';
import { purchaseHistory } from '../domain/purchaseHistory.ts';
import { promoOutcomeFor } from '../domain/promoClaims.ts';
import type { BillingRuntime } from '../runtime.ts';
import { refuseUnknownFields } from './strictBody.ts';

const HOUR = 3_600_000;
const PRICE_HINT = 'Prices are set by the server from the plan table; send only plan_id.';

/** The signed-in user's payment calls (spec section 7) and the public checkout configuration. */
export async function paymentRoutes(app: App, rt: BillingRuntime): Promise<void> {
  const { db } = rt.ctx;

  handle(app, PAYMENT_ROUTES.config, async () => {
    const provider = await rt.providers.active();
    return { client_id: provider.clientId, mode: provider.mode, currency: 'USD' as const, intent: 'capture' as const };
  });

  // Right after signing up it waits a moment for the signup grant, as auth's /me does.
  handle(app, PAYMENT_ROUTES.balance, async (request) => ({ balance: await rt.balanceForDisplay(principalOf(request).id) }));

  handle(app, PAYMENT_ROUTES.creditActivity, async (request) => ({
    days: await creditActivity(db, principalOf(request).id, request.query.days ?? ACTIVITY_DAYS_DEFAULT),
  }));

  handle(app, PAYMENT_ROUTES.history, async (request) => {
    const { limit = 20 } = request.query;
    return { purchases: await purchaseHistory(db, principalOf(request).id, limit) };
  });

  handle(app, PAYMENT_ROUTES.create, {
    preValidation: refuseUnknownFields(CreatePaymentRequest, PRICE_HINT),
    preHandler: rateLimited(rt.ctx.counters, {
      name: 'billing-create-user', max: rt.limits.ordersPerUserPerHour, windowMs: HOUR, key: (request) => request.principal?.id,
    }),
  }, async (request) => {
    const { body } = request;
    return rt.checkout.startPlanCheckout(principalOf(request).id, body.plan_id, { returnUrl: body.return_url, cancelUrl: body.cancel_url });
  });

  handle(app, PAYMENT_ROUTES.execute, async (request, reply) => {
    const { payment_id } = request.body;
    const result = await rt.checkout.executePlanPayment(principalOf(request).id, payment_id);
    return reply.status(result.status === 'pending' ? 202 : 200).send(result);
  });

  handle(app, PAYMENT_ROUTES.requestRefund, {
    preHandler: rateLimited(rt.ctx.counters, { name: 'billing-refund-request-user', max: 20, windowMs: HOUR, key: (request) => request.principal?.id }),
  }, async (request) => rt.refundRequests.request(principalOf(request), request.params.purchaseId, request.body.reason));

  handle(app, PAYMENT_ROUTES.promoOrder, async (request) => promoOutcomeFor(db, principalOf(request).id, request.params.orderId));
}
