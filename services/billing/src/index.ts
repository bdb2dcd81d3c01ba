import type { ServiceDefinition } from '@leadforge/kit/service';
import { perService } from '@leadforge/kit/service';
import { buildRuntime } from './runtime.ts';
import { consumeSignups } from './events/signupConsumer.ts';
import { accountDataRoutes } from './routes/accountDataRoutes.ts';
import { adminRoutes } from './routes/adminRoutes.ts';
import { internalRoutes } from './routes/internalRoutes.ts';
import { paymentRoutes } from './routes/paymentRoutes.ts';
import { promoRoutes } from './routes/promoRoutes.ts';
import { testCheckoutRoutes } from './routes/testCheckoutRoutes.ts';
import { webhookRoutes } from './routes/webhookRoutes.ts';

const runtimeOf = perService(buildRuntime);

/** Billing: the credit ledger, plans, purchases and promo orders, PayPal checkout and webhooks. */
export const billingService: ServiceDefinition = {
  name: 'billing',
  migrationsDir: new URL('./db/migrations', import.meta.url).pathname,

  async routes(app, ctx) {
    const rt = await runtimeOf(ctx);
    await paymentRoutes(app, rt);
    await promoRoutes(app, rt);
    await testCheckoutRoutes(app, rt);
    await webhookRoutes(app, rt);
    await adminRoutes(app, rt);
    await internalRoutes(app, rt);
    await accountDataRoutes(app, rt);
  },

  async start(ctx) {
    const subscription = await consumeSignups(ctx);
    return () => subscription.close();
  },
};

export default billingService;
