import type { App } from '@leadforge/kit/service';
import { handle, principalOf } from '@leadforge/kit/http';
import { ACTIVITY_DAYS_DEFAULT, LEAD_SEARCH_ROUTES } from '@leadforge/contracts';
import type { LeadsRuntime } from '../runtime.ts';
import { leadActivity } from '../domain/leadActivity.ts';

/** GET /api/lead-activity: the dashboard's charts of the signed-in user's own searches and leads per day. */
export async function leadActivityRoute(app: App, rt: LeadsRuntime): Promise<void> {
  handle(app, LEAD_SEARCH_ROUTES.activity, async (request) => ({
    days: await leadActivity(rt.ctx.db, principalOf(request).id, request.query.days ?? ACTIVITY_DAYS_DEFAULT),
  }));
}
