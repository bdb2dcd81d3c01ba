import type { ServiceContext } from '@leadforge/kit/service';
import { readInt } from '@leadforge/kit/config';
import { Checkout } from './domain/checkout.ts';
import { PaypalWebhooks } from './domain/paypalWebhooks.ts';
import { displayBalances } from './domain/signups.ts';
import { loadPaymentsConfig } from './payments/paymentsConfig.ts';
import { PaymentProviders } from './payments/paymentProviders.ts';

/** What billing's routes and consumers share, built once per start. */
export interface BillingRuntime {
  ctx: ServiceContext;
  providers: PaymentProviders;
  checkout: Checkout;
  webhooks: PaypalWebhooks;
  balanceForDisplay: (userId: string) => Promise<number>;
  limits: { ordersPerUserPerHour: number; promoOrdersPerIpPerHour: number };
}

export async function buildRuntime(ctx: ServiceContext): Promise<BillingRuntime> {
  const env = ctx.env;
  const providers = new PaymentProviders(ctx.db, loadPaymentsConfig(env, ctx.config.requireRealProviders));
  await providers.initialise(ctx.config.requireRealProviders);
  if (providers.testCheckout) ctx.log.warn('no PayPal credentials: payments use the built-in test checkout (no money moves)');
  return {
    ctx,
    providers,
    checkout: new Checkout(ctx, providers),
    webhooks: new PaypalWebhooks(ctx, providers),
    balanceForDisplay: displayBalances(ctx.db, readInt(env, 'BILLING_SIGNUP_WAIT_MS', 600, 0, 5000)),
    limits: {
      ordersPerUserPerHour: readInt(env, 'BILLING_ORDERS_PER_USER_PER_HOUR', 30, 1),
      promoOrdersPerIpPerHour: readInt(env, 'BILLING_PROMO_ORDERS_PER_IP_PER_HOUR', 30, 1),
    },
  };
}
