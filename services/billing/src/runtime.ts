import type { ServiceContext } from '@leadforge/kit/service';
import { Checkout } from './domain/checkout.ts';
import { PaypalWebhooks } from './domain/paypalWebhooks.ts';
import { RefundRequests } from './domain/refundRequests.ts';
import { displayBalances } from './domain/signups.ts';
import type { BillingConfig } from './config.ts';
import { PaymentProviders } from './payments/paymentProviders.ts';

/** What billing's routes and consumers share, built once per start. */
export interface BillingRuntime {
  ctx: ServiceContext;
  providers: PaymentProviders;
  checkout: Checkout;
  refundRequests: RefundRequests;
  webhooks: PaypalWebhooks;
  balanceForDisplay: (userId: string) => Promise<number>;
  limits: { ordersPerUserPerHour: number; promoOrdersPerIpPerHour: number };
}

export async function buildRuntime(ctx: ServiceContext, config: BillingConfig): Promise<BillingRuntime> {
  const providers = new PaymentProviders(ctx.db, config.payments);
  await providers.initialise(ctx.config.requireRealProviders);
  if (providers.testCheckout) ctx.log.warn('no PayPal credentials: payments use the built-in test checkout (no money moves)');
  return {
    ctx,
    providers,
    checkout: new Checkout(ctx, providers),
    refundRequests: new RefundRequests(ctx, providers),
    webhooks: new PaypalWebhooks(ctx, providers),
    balanceForDisplay: displayBalances(ctx.db, config.signupWaitMs),
    limits: config.limits,
  };
}
