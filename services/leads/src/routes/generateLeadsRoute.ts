import type { App } from '@leadforge/kit/service';
import { handle, principalOf, serviceUnavailable } from '@leadforge/kit/http';
import { LEAD_SEARCH_ROUTES, type SearchFailureCode } from '@leadforge/contracts';
import type { LeadsRuntime } from '../runtime.ts';
import { allLeads } from '../domain/leadRows.ts';
import { waitForEnd } from '../domain/searchEnd.ts';
import { statsOf } from '../domain/searchRecord.ts';
import { startSearch } from '../domain/searchStart.ts';
import { searchStartLimit } from '../domain/startRateLimit.ts';

/** A place the user must name differently is their request's problem (422); the directory not answering is a gateway's (502), or unavailable (503). */
function failedStatusOf(code: SearchFailureCode | null): 422 | 502 | 503 {
  if (code === 'location_not_found' || code === 'location_ambiguous') return 422;
  if (code === 'provider_quota_exhausted' || code === 'no_source_configured') return 503;
  return 502;
}

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
    if (ended.status === 'failed') {
      return reply.code(failedStatusOf(ended.error_code)).send({
        detail: ended.error ?? 'The search failed. Nothing was charged; please try again.',
        code: ended.error_code ?? ended.reason ?? 'search_failed',
        ...(ended.error_candidates?.length ? { error_candidates: ended.error_candidates } : {}),
      });
    }
    return { leads: await allLeads(db, ended.id), stats: statsOf(ended) };
  });
}
