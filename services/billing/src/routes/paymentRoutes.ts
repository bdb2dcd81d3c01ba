import { Type } from 'typebox';
import type { App } from '@leadforge/kit/service';
import { principalOf, rateLimited } from '@leadforge/kit/http';
import {
  CreatePaymentRequest, CreatePaymentResponse, ErrorBody, ExecutePaymentRequest, ExecutePaymentResponse,
  PaymentHistoryQuery, PaymentHistoryResponse, PaymentsConfigResponse, PromoClaimResponse,
} from '@leadforge/contracts';
import { purchaseHistory } from '../domain/purchases.ts';
import { promoOutcomeFor } from '../domain/promoClaims.ts';
import type { BillingRuntime } from '../runtime.ts';
import { refuseUnknownFields } from './strictBody.ts';

const HOUR = 3_600_000;
const errors = { 400: ErrorBody, 401: ErrorBody, 402: ErrorBody, 404: ErrorBody, 409: ErrorBody, 422: ErrorBody, 429: ErrorBody, 502: ErrorBody, 503: ErrorBody };
const PRICE_HINT = 'Prices are set by the server from the plan table; send only plan_id.';

/** The signed-in user's payment calls (spec section 7) and the public checkout configuration. */
export async function paymentRoutes(app: App, rt: BillingRuntime): Promise<void> {
  const { db } = rt.ctx;

  app.get('/api/payments/config', { schema: { response: { 200: PaymentsConfigResponse } } }, async () => {
    const provider = await rt.providers.active();
    return { client_id: provider.clientId, mode: provider.mode, currency: 'USD' as const, intent: 'capture' as const };
  });

  app.get('/api/payments/history', {
    schema: { querystring: PaymentHistoryQuery, response: { 200: PaymentHistoryResponse, ...errors } },
    preHandler: app.requireUser,
  }, async (request) => {
    const { limit = 20 } = request.query as { limit?: number };
    return { purchases: await purchaseHistory(db, principalOf(request).id, limit) };
  });

  app.post('/api/payments/create', {
    schema: { body: CreatePaymentRequest, response: { 200: CreatePaymentResponse, ...errors } },
    preValidation: refuseUnknownFields(CreatePaymentRequest, PRICE_HINT),
    preHandler: [app.requireUser, rateLimited(rt.ctx.counters, {
      name: 'billing-create-user', max: rt.limits.ordersPerUserPerHour, windowMs: HOUR, key: (request) => request.principal?.id,
    })],
  }, async (request) => {
    const body = request.body as CreatePaymentRequest;
    return rt.checkout.startPlanCheckout(principalOf(request).id, body.plan_id, { returnUrl: body.return_url, cancelUrl: body.cancel_url });
  });

  app.post('/api/payments/execute', {
    schema: { body: ExecutePaymentRequest, response: { 200: ExecutePaymentResponse, 202: ExecutePaymentResponse, ...errors } },
    preHandler: app.requireUser,
  }, async (request, reply) => {
    const { payment_id } = request.body as ExecutePaymentRequest;
    const result = await rt.checkout.executePlanPayment(principalOf(request).id, payment_id);
    return reply.status(result.status === 'pending' ? 202 : 200).send(result);
  });

  app.get('/api/payments/promo-orders/:orderId', {
    schema: { params: Type.Object({ orderId: Type.String({ minLength: 1, maxLength: 64 }) }), response: { 200: PromoClaimResponse, ...errors } },
    preHandler: app.requireUser,
  }, async (request) => promoOutcomeFor(db, principalOf(request).id, (request.params as { orderId: string }).orderId));
}
