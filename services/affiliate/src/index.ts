import { defineService, running } from '@leadforge/kit/service';
import { startAffiliateConsumers } from './events/consumers.ts';
import { accountDataRoutes } from './routes/accountDataRoutes.ts';
import { affiliateRoutes } from './routes/affiliateRoutes.ts';
import { payoutRoutes } from './routes/payoutRoutes.ts';
import { affiliateConfigFrom, AffiliateVariables } from './config.ts';
import { buildRuntime } from './runtime.ts';

/** Referral codes, referrals, commissions and their payouts, and affiliate applications. */
export const affiliateService = defineService({
  name: 'affiliate',
  migrationsDir: new URL('./db/migrations', import.meta.url).pathname,
  variables: AffiliateVariables,
  config: affiliateConfigFrom,
  runtime: buildRuntime,
  routes: [affiliateRoutes, payoutRoutes, accountDataRoutes],
  start: [startAffiliateConsumers, ({ maturing }) => running(maturing)],
});

export default affiliateService;
