import { emitEvent, type Subscription } from '@leadforge/kit/events';
import { TOPICS } from '@leadforge/contracts';
import { takeLeads } from '../domain/leadIntake.ts';
import { afterCommit, appendFeedEvent } from '../domain/searchFeed.ts';
import { endSearch, INTAKE_FAILED_ERROR, outcomeOfEngineFinish } from '../domain/searchOutcome.ts';
import { lockSearch, progressOf, type Trx } from '../domain/searchRecord.ts';
import type { LeadsRuntime } from '../runtime.ts';

/**
 * Takes the engine's reports on a search (`scraper.result`, keyed by search id, so in order) into the
 * search's rows and feed. Handlers stay short and local: billing is called after the commit. Leads that
 * cannot be stored are tried again for intakeRetryMs only: then the event is parked (replayable) and,
 * in the same transaction, its search fails with nothing charged and the engine is told to stop.
 */
export function consumeScrapeResults({ ctx, signals, settlement, config }: LeadsRuntime): Promise<Subscription> {
  const { log } = ctx;
  const announce = (trx: Trx, searchId: string) => afterCommit(trx, () => signals.changed(searchId));

  return ctx.consume('leads.scrape-results', [TOPICS.scraperResult], {
    'scrape.progress': async (data, _envelope, trx) => {
      const search = await lockSearch(trx, data.search_id);
      // A search its first batch of leads completed ended before the coverage sent with them: it keeps it.
      if (search && search.status !== 'running' && search.status !== 'reserving' && !search.coverage && data.coverage) {
        await trx('lead_searches').where({ id: search.id }).update({ coverage: JSON.stringify(data.coverage) });
      }
      if (search?.status !== 'running') return;
      const places = Math.max(search.places_found, data.places_found);
      const checked = Math.max(search.websites_checked, data.websites_checked);
      const coverage = data.coverage ?? search.coverage;
      if (places === search.places_found && checked === search.websites_checked && JSON.stringify(coverage) === JSON.stringify(search.coverage)) return;
      await trx('lead_searches').where({ id: search.id }).update({ places_found: places, websites_checked: checked, coverage: coverage && JSON.stringify(coverage) });
      await appendFeedEvent(trx, search.id, 'progress', progressOf({ ...search, places_found: places, websites_checked: checked, coverage }));
      announce(trx, search.id);
    },

    'scrape.leads_found': async (data, _envelope, trx) => {
      const search = await lockSearch(trx, data.search_id);
      if (search?.status !== 'running') return;
      const updated = await takeLeads(trx, search, data.leads, config.ownershipWindowDays);
      if (updated === search) return;
      announce(trx, search.id);
      // All the user asked for has arrived: end now rather than wait for the engine to say so.
      if (updated.leads_count >= updated.quantity) {
        await endSearch(trx, updated, { status: 'completed', reason: 'done', error: null });
        // Asked for more than the quantity (owned businesses to skip): the engine can stop now.
        if ((updated.engine_quantity ?? updated.quantity) > updated.quantity) {
          await emitEvent(trx, 'search.cancelled', search.id, { search_id: search.id, user_id: search.user_id });
        }
        afterCommit(trx, () => settlement.settleInBackground(search.id));
      }
    },

    'scrape.finished': async (data, _envelope, trx) => {
      const search = await lockSearch(trx, data.search_id);
      if (search?.status !== 'running') return;
      if (data.error) log.warn({ searchId: search.id, reason: data.reason, error: data.error }, 'the engine ended a search with an error');
      if (data.coverage) await trx('lead_searches').where({ id: search.id }).update({ coverage: JSON.stringify(data.coverage) });
      await endSearch(trx, search, outcomeOfEngineFinish(search, data));
      announce(trx, search.id);
      afterCommit(trx, () => settlement.settleInBackground(search.id));
    },
  }, {
    retryForMsByType: { 'scrape.leads_found': config.intakeRetryMs },
    onParked: async ({ type, envelope, error }, trx) => {
      if (type !== 'scrape.leads_found') return;
      // Parked data may break its schema: the search id is read with care.
      const searchId = (envelope.data as { search_id?: unknown } | undefined)?.search_id;
      const search = typeof searchId === 'string' ? await lockSearch(trx, searchId) : undefined;
      if (search?.status !== 'running') return;
      log.error({ searchId: search.id, eventId: envelope.id, error }, 'the leads found for a search could not be stored; the search fails, nothing charged');
      await endSearch(trx, search, { status: 'failed', reason: 'intake_failed', error: INTAKE_FAILED_ERROR });
      await emitEvent(trx, 'search.cancelled', search.id, { search_id: search.id, user_id: search.user_id });
      announce(trx, search.id);
      afterCommit(trx, () => settlement.settleInBackground(search.id));
    },
  });
}
