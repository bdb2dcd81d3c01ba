import type { App } from '@leadforge/kit/service';
import { handle, HttpError, principalOf, serviceUnavailable } from '@leadforge/kit/http';
import { LEAD_SEARCH_ROUTES } from '@leadforge/contracts';
import type { LeadsRuntime } from '../runtime.ts';
import { allLeads } from '../domain/leadRows.ts';
import { waitForEnd } from '../domain/searchEnd.ts';
import { statsOf } from '../domain/searchRecord.ts';
import { startSearch } from '../domain/searchStart.ts';
import { searchStartLimit } from '../domain/startRateLimit.ts';

/**
 * The spec's call: starts a search and answers when it has ended, with its leads and stats. A caller
 * that gives up early loses nothing: the search finishes and stays in their history.
 */
export async function generateLeadsRoute(app: App, rt: LeadsRuntime): Promise<void> {
  const { db } = rt.ctx;
  handle(app, LEAD_SEARCH_ROUTES.generate, {
    preHandler: searchStartLimit(rt.ctx.counters, rt.config.startsPerMinute),
  }, async (request, reply) => {
    const search = await startSearch(rt.startDeps, principalOf(request).id, request.body);

    const gone = new AbortController();
    const onClose = () => gone.abort();
    reply.raw.on('close', onClose);
    rt.closing.signal.addEventListener('abort', onClose);
    let ended;
    try {
      ended = await waitForEnd(db, rt.signals, search.id, gone.signal);
    } finally {
      reply.raw.off('close', onClose);
      rt.closing.signal.removeEventListener('abort', onClose);
    }
    if (!ended) throw serviceUnavailable('The service is restarting. Your search goes on: find its results in your search history in a moment.', 'restarting');
    if (ended.status === 'failed') throw new HttpError(502, ended.error ?? 'The search failed. Nothing was charged; please try again.', ended.reason ?? 'search_failed');
    return { leads: await allLeads(db, ended.id), stats: statsOf(ended) };
  });
}
