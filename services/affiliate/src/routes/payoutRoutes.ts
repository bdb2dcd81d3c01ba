import type { App } from '@leadforge/kit/service';
import { badRequest } from '@leadforge/kit/http';
import { AffiliateApplicationsQuery, AffiliateApplicationsResponse, ErrorBody, PayoutBatch, PayoutBatchRequest, PayoutBatchesResponse } from '@leadforge/contracts';
import { listApplications } from '../domain/applications.ts';
import { recentBatches, runPayoutBatch } from '../domain/payouts.ts';
import { payoutPeriod } from '../domain/payoutSchedule.ts';
import type { AffiliateRuntime } from '../runtime.ts';

/** Admin: the monthly PayPal payout of due commissions, its history, and the affiliate applications. */
export async function payoutRoutes(app: App, rt: AffiliateRuntime): Promise<void> {
  const { db, log } = rt.ctx;
  const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody };

  app.get('/api/admin/affiliate-payouts', {
    schema: { response: { 200: PayoutBatchesResponse, ...errors } },
    preHandler: app.requireAdmin,
  }, async () => ({ batches: await recentBatches(db) }));

  app.post('/api/admin/affiliate-payouts', {
    schema: { body: PayoutBatchRequest, response: { 200: PayoutBatch, ...errors } },
    preHandler: app.requireAdmin,
  }, async (request) => {
    const current = payoutPeriod(new Date());
    const period = (request.body as { period?: string } | undefined)?.period ?? current;
    if (period > current) throw badRequest('A payout cannot run for a future month', 'future_period');
    return runPayoutBatch(db, rt.payouts, period, log);
  });

  app.get('/api/admin/affiliate-applications', {
    schema: { querystring: AffiliateApplicationsQuery, response: { 200: AffiliateApplicationsResponse, ...errors } },
    preHandler: app.requireAdmin,
  }, async (request) => {
    const { page = 1, page_size = 20 } = request.query as { page?: number; page_size?: number };
    return listApplications(db, page, page_size);
  });
}
