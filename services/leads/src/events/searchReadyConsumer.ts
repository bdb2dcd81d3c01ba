import { TOPICS } from '@leadforge/contracts';
import type { Subscription } from '@leadforge/kit/events';
import { mailRecipientOf } from '@leadforge/kit/mail';
import type { LeadsRuntime } from '../runtime.ts';

/** A search that ran longer than this has likely lost its user's attention: tell them by email. */
export const SEARCH_READY_AFTER_MS = 60_000;
/** leads.search keeps its whole history: a new consumer group must not mail about old searches. */
const SEARCH_MAX_AGE_MS = 24 * 3600_000;

/**
 * "Your leads are ready": search.requested records when a search started, search.completed (same
 * topic and key, so after it) queues the email when the search ran more than a minute, completed,
 * and its user has not turned the email off (auth, which owns the address, says so). A monitor's run
 * (monitor.run.completed) mails its new businesses, or that it had no credits. Queued in the
 * transaction that records the event as handled, so a redelivery sends nothing twice.
 */
export function consumeSearchMails(rt: LeadsRuntime): Promise<Subscription> {
  const { ctx, mail } = rt;
  return ctx.consume('leads.search-mails', [TOPICS.leadsSearch], {
    'search.requested': async (data, envelope, trx) => {
      if (Date.now() - new Date(envelope.occurred_at).getTime() > SEARCH_MAX_AGE_MS) return;
      await trx('search_ready_pending')
        .insert({ search_id: data.search_id, user_id: data.user_id, requested_at: envelope.occurred_at })
        .onConflict('search_id').ignore();
      // Searches whose end never came (the longest runs for minutes) are forgotten after a day.
      await trx('search_ready_pending').where('requested_at', '<', new Date(Date.now() - SEARCH_MAX_AGE_MS)).delete();
    },
    'search.completed': async (data, _envelope, trx) => {
      const started = await trx('search_ready_pending').where({ search_id: data.search_id }).delete().returning('requested_at');
      if (!started.length || data.status !== 'completed') return;
      const ranMs = new Date(data.timestamp).getTime() - new Date(started[0].requested_at).getTime();
      if (ranMs <= SEARCH_READY_AFTER_MS) return;
      const user = await mailRecipientOf(ctx.internal, data.user_id);
      if (!user?.notify_search_ready) return;
      await mail.send(trx, {
        to: user.email, userId: user.user_id, template: 'search-ready',
        data: { name: user.name, resultsCount: data.results_count, finishedAt: data.timestamp },
      });
    },
    // A monitor's run: its new businesses when the user asked for email notices; a run that had no credits, always.
    'monitor.run.completed': async (data, envelope, trx) => {
      if (Date.now() - new Date(envelope.occurred_at).getTime() > SEARCH_MAX_AGE_MS) return;
      const newLeads = data.status === 'completed' && data.notify_email && data.new_leads > 0 && data.search_id;
      if (!newLeads && data.status !== 'insufficient_credits') return;
      const user = await mailRecipientOf(ctx.internal, data.user_id);
      if (!user) return;
      const run = { name: user.name, industry: data.industry, location: data.location };
      await mail.send(trx, newLeads
        ? { to: user.email, userId: user.user_id, template: 'monitor-new-leads', data: { ...run, newLeads: data.new_leads, searchId: data.search_id! } }
        : { to: user.email, userId: user.user_id, template: 'monitor-no-credits', data: run });
    },
  });
}
