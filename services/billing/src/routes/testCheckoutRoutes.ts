import type { App } from '@leadforge/kit/service';
import { handle, notFound, rateLimited } from '@leadforge/kit/http';
import { PAYMENT_ROUTES } from '@leadforge/contracts';
import type { BillingRuntime } from '../runtime.ts';

/**
 * The buyer's "Approve" in the built-in test checkout (local mode without PayPal credentials);
 * with real PayPal the buyer approves in PayPal's own window and this route answers 404.
 */
export async function testCheckoutRoutes(app: App, rt: BillingRuntime): Promise<void> {
  handle(app, PAYMENT_ROUTES.approveTestCheckout, {
    preHandler: rateLimited(rt.ctx.counters, { name: 'billing-test-approve-ip', max: 120, windowMs: 3_600_000 }),
  }, async (request) => {
    const testCheckout = rt.providers.testCheckout;
    if (!testCheckout) throw notFound('The test checkout is not available: this server takes payments through PayPal', 'test_checkout_disabled');
    return testCheckout.approve(request.params.orderId);
  });
}
