import type { App } from '@leadforge/kit/service';
import { internalGuard } from '@leadforge/kit/http';
import { ACCOUNT_DATA_EXPORT_PATH, AccountDataRequest, AccountDataResponse, ErrorBody } from '@leadforge/contracts';
import type { LeadsRuntime } from '../runtime.ts';
import { listEndpoints, toEndpoint } from '../webhooks/webhookEndpoints.ts';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** Leads' part of a user's data export: every search, with what it asked for and the leads it delivered; webhook endpoints (no secrets); monitors. */
export async function accountDataRoute(app: App, rt: LeadsRuntime): Promise<void> {
  const { db } = rt.ctx;
  app.post(ACCOUNT_DATA_EXPORT_PATH, {
    schema: { body: AccountDataRequest, response: { 200: AccountDataResponse, 403: ErrorBody } },
    preHandler: internalGuard(rt.ctx.config.internalToken),
  }, async (request) => {
    const userId = request.body.user_id;
    const searches = await db('lead_searches').where({ user_id: userId }).orderBy('created_at');
    const leads = await db('leads').whereIn('search_id', searches.map((s) => s.id)).orderBy(['search_id', 'position'])
      .select('search_id', 'name', 'company', 'email', 'phone', 'website', 'city', 'address', 'country', 'socials', 'people', 'source');
    const leadsOf = new Map<string, unknown[]>();
    for (const { search_id, ...lead } of leads) leadsOf.set(search_id, [...(leadsOf.get(search_id) ?? []), lead]);
    return {
      lead_searches: searches.map((s) => ({
        id: s.id,
        industry: s.industry,
        location: s.location,
        quantity: s.quantity,
        status: s.status,
        reason: s.reason,
        leads_count: s.leads_count,
        credits_used: s.credits_used,
        created_at: iso(s.created_at),
        finished_at: iso(s.finished_at),
        monitor_id: s.monitor_id,
        leads: leadsOf.get(s.id) ?? [],
      })),
      webhooks: (await listEndpoints(db, userId)).map(toEndpoint),
      monitors: (await db('monitors').where({ user_id: userId }).orderBy('created_at')).map((m) => ({
        id: m.id, industry: m.industry, location: m.location, max_leads_per_run: m.max_leads_per_run, frequency: m.frequency,
        status: m.status, notify_email: m.notify_email, created_at: iso(m.created_at),
      })),
      emails_sent: await rt.mail.sentTo(db, { userId }),
    };
  });
}
