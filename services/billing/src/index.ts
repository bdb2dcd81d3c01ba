import { MAIL_QUEUE } from '@leadforge/kit/mail';
import { defineService, running } from '@leadforge/kit/service';
import { billingConfigFrom, BillingVariables } from './config.ts';
import { buildRuntime } from './runtime.ts';
import { consumeSignups } from './events/signupConsumer.ts';
import { consumeReceipts } from './events/receiptConsumer.ts';
import { accountDataRoutes } from './routes/accountDataRoutes.ts';
import { adminRoutes } from './routes/adminRoutes.ts';
import { internalRoutes } from './routes/internalRoutes.ts';
import { paymentRoutes } from './routes/paymentRoutes.ts';
import { promoRoutes } from './routes/promoRoutes.ts';
import { testCheckoutRoutes } from './routes/testCheckoutRoutes.ts';
import { webhookRoutes } from './routes/webhookRoutes.ts';

/** Billing: the credit ledger, plans, purchases and promo orders, PayPal checkout and webhooks. */
export const billingService = defineService({
  name: 'billing',
  queues: [MAIL_QUEUE],
  migrationsDir: new URL('./db/migrations', import.meta.url).pathname,
  variables: BillingVariables,
  config: billingConfigFrom,
  runtime: buildRuntime,
  routes: [paymentRoutes, promoRoutes, testCheckoutRoutes, webhookRoutes, adminRoutes, internalRoutes, accountDataRoutes],
  start: [({ mail }) => running(mail), consumeSignups, consumeReceipts],
});

export default billingService;
