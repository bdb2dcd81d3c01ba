import type { App } from '@leadforge/kit/service';
import { rateLimited } from '@leadforge/kit/http';
import { CompletePromoRequest, CompletePromoResponse, CreatePromoOrderRequest, CreatePromoOrderResponse, ErrorBody } from '@leadforge/contracts';
import type { BillingRuntime } from '../runtime.ts';
import { refuseUnknownFields } from './strictBody.ts';

const HOUR = 3_600_000;
const errors = { 400: ErrorBody, 402: ErrorBody, 404: ErrorBody, 409: ErrorBody, 422: ErrorBody, 429: ErrorBody, 502: ErrorBody, 503: ErrorBody };

/** The CBC500 promo: the visitor pays before having an account, then registers with the order id. */
export async function promoRoutes(app: App, rt: BillingRuntime): Promise<void> {
  const perIp = (name: string) => rateLimited(rt.ctx.counters, { name, max: rt.limits.promoOrdersPerIpPerHour, windowMs: HOUR });

  app.post('/api/payments/create-order', {
    schema: { body: CreatePromoOrderRequest, response: { 200: CreatePromoOrderResponse, ...errors } },
    preValidation: refuseUnknownFields(CreatePromoOrderRequest, 'The promo price is set by the server.'),
    preHandler: perIp('billing-promo-create-ip'),
  }, async (request) => rt.checkout.startPromoCheckout((request.body as CreatePromoOrderRequest).amount));

  app.post('/api/payments/complete-payment', {
    schema: { body: CompletePromoRequest, response: { 200: CompletePromoResponse, ...errors } },
    preHandler: perIp('billing-promo-complete-ip'),
  }, async (request) => rt.checkout.completePromoPayment((request.body as CompletePromoRequest).order_id));
}
