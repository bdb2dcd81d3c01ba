import type { ServiceDefinition } from '@leadforge/kit/service';
import { perService } from '@leadforge/kit/service';
import { WorkLoop } from '@leadforge/kit/work';
import { matureCommissions } from './domain/commissions.ts';
import { startAffiliateConsumers } from './events/consumers.ts';
import { accountDataRoutes } from './routes/accountDataRoutes.ts';
import { affiliateRoutes } from './routes/affiliateRoutes.ts';
import { payoutRoutes } from './routes/payoutRoutes.ts';
import { buildRuntime } from './runtime.ts';

const runtimeOf = perService(buildRuntime);

/** Referral codes, referrals, commissions and their payouts, and affiliate applications. */
export const affiliateService: ServiceDefinition = {
  name: 'affiliate',
  migrationsDir: new URL('./db/migrations', import.meta.url).pathname,

  async routes(app, ctx) {
    const rt = await runtimeOf(ctx);
    await affiliateRoutes(app, rt);
    await payoutRoutes(app, rt);
    await accountDataRoutes(app, rt);
  },

  async start(ctx) {
    const rt = await runtimeOf(ctx);
    const subscription = await startAffiliateConsumers(rt);
    // Commissions leave their refund window on their own; reads and payouts also mature them.
    const maturing = new WorkLoop({
      name: 'affiliate commission maturing',
      logger: ctx.log,
      step: async () => { await matureCommissions(ctx.db); },
      pollMs: rt.maturingSweepMs,
      retry: { baseMs: 1_000, maxMs: rt.maturingSweepMs },
    });
    maturing.start();
    return async () => {
      await maturing.stop();
      await subscription.close();
    };
  },
};

export default affiliateService;
