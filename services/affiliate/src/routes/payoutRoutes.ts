import type { App } from '@leadforge/kit/service';
import { badRequest, handle } from '@leadforge/kit/http';
import { AFFILIATE_ROUTES } from '@leadforge/contracts';
import { listApplications } from '../domain/applications.ts';
import { recentBatches, runPayoutBatch } from '../domain/payouts.ts';
import { payoutPeriod } from '../domain/payoutSchedule.ts';
import type { AffiliateRuntime } from '../runtime.ts';

/** Admin: the monthly PayPal payout of due commissions, its history, and the affiliate applications. */
export async function payoutRoutes(app: App, rt: AffiliateRuntime): Promise<void> {
  const { db, log } = rt.ctx;

  handle(app, AFFILIATE_ROUTES.payouts, async () => ({ batches: await recentBatches(db) }));

  handle(app, AFFILIATE_ROUTES.runPayout, async (request) => {
    const current = payoutPeriod(new Date());
    // The body is optional: no body runs the current month.
    const period = request.body?.period ?? current;
    if (period > current) throw badRequest('A payout cannot run for a future month', 'future_period');
    return runPayoutBatch(db, rt.payouts, period, log, rt.clock());
  });

  handle(app, AFFILIATE_ROUTES.applications, async (request) => {
    const { page = 1, page_size = 20 } = request.query;
    return listApplications(db, page, page_size);
  });
}
