import type { App } from '@leadforge/kit/service';
import { handle } from '@leadforge/kit/http';
import { LEAD_SEARCH_ROUTES } from '@leadforge/contracts';
import type { LeadsRuntime } from '../runtime.ts';
import { publicStats } from '../domain/publicStats.ts';

/** GET /api/lead-stats: the figures the home page claims, measured from the product's own searches. */
export async function publicStatsRoute(app: App, rt: LeadsRuntime): Promise<void> {
  const figures = publicStats(rt.ctx.db);
  handle(app, LEAD_SEARCH_ROUTES.publicStats, () => figures());
}
