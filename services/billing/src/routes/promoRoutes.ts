import type { App } from '@leadforge/kit/service';
import { handle, rateLimited } from '@leadforge/kit/http';
import { CreatePromoOrderRequest, PAYMENT_ROUTES } from '@leadforge/contracts';
import type { BillingRuntime } from '../runtime.ts';
import { refuseUnknownFields } from './strictBody.ts';

const HOUR = 3_600_000;

/** The CBC500 promo: the visitor pays before having an account, then registers with the order id. */
export async function promoRoutes(app: App, rt: BillingRuntime): Promise<void> {
  const perIp = (name: string) => rateLimited(rt.ctx.counters, { name, max: rt.limits.promoOrdersPerIpPerHour, windowMs: HOUR });

  handle(app, PAYMENT_ROUTES.createPromoOrder, {
    preValidation: refuseUnknownFields(CreatePromoOrderRequest, 'The promo price is set by the server.'),
    preHandler: perIp('billing-promo-create-ip'),
  }, async (request) => rt.checkout.startPromoCheckout(request.body.amount));

  handle(app, PAYMENT_ROUTES.completePromoPayment, {
    preHandler: perIp('billing-promo-complete-ip'),
  }, async (request) => rt.checkout.completePromoPayment(request.body.order_id));
}
