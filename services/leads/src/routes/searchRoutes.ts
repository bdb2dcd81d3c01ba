import type { Knex } from 'knex';
import type { App } from '@leadforge/kit/service';
import { emitEvent } from '@leadforge/kit/events';
import { badRequest, conflict, handle, notFound, principalOf } from '@leadforge/kit/http';
import { LEAD_SEARCH_ROUTES, type LeadSearchHistoryQuery } from '@leadforge/contracts';
import type { LeadsRuntime } from '../runtime.ts';
import { allLeads } from '../domain/leadRows.ts';
import { afterCommit } from '../domain/searchFeed.ts';
import { endSearch } from '../domain/searchOutcome.ts';
import { findOwnSearch, lockSearch, progressOf, statsOf, toSummary, type SearchRow } from '../domain/searchRecord.ts';
import { startSearch } from '../domain/searchStart.ts';
import { searchStartLimit } from '../domain/startRateLimit.ts';

const NOT_FOUND = 'Search not found';

/** Escapes LIKE's wildcards, so a typed `%` or `_` matches itself. */
const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/** The history's filters: every word typed in the industry or location, the UTC day range (inclusive), the status. */
function historyFilter(searches: Knex.QueryBuilder, { q, status, from, to }: LeadSearchHistoryQuery): Knex.QueryBuilder {
  for (const word of (q ?? '').trim().split(/\s+/).filter(Boolean)) {
    searches.where((either) => { either.whereILike('industry', likePattern(word)).orWhereILike('location', likePattern(word)); });
  }
  if (from && to && from > to) throw badRequest('from must be on or before to');
  if (status) searches.where({ status });
  if (from) searches.where('created_at', '>=', new Date(`${from}T00:00:00Z`));
  if (to) searches.where('created_at', '<', new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000));
  return searches;
}

export async function searchRoutes(app: App, rt: LeadsRuntime): Promise<void> {
  const { db } = rt.ctx;

  handle(app, LEAD_SEARCH_ROUTES.start, {
    preHandler: searchStartLimit(rt.ctx.counters, rt.config.startsPerMinute),
  }, async (request, reply) => {
    const search = await startSearch(rt.startDeps, principalOf(request).id, request.body);
    return reply.status(201).header('location', `/api/lead-searches/${search.id}`).send(toSummary(search));
  });

  handle(app, LEAD_SEARCH_ROUTES.history, async (request) => {
    const { query } = request;
    const { page = 1, page_size: pageSize = 20 } = query;
    const mine = historyFilter(db('lead_searches').where({ user_id: principalOf(request).id }).whereNot({ status: 'reserving' }), query);
    const [{ total }] = await mine.clone().count({ total: '*' });
    const rows: SearchRow[] = await mine.clone().orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
      .limit(pageSize).offset((page - 1) * pageSize);
    return { searches: rows.map(toSummary), total: Number(total), page, page_size: pageSize };
  });

  handle(app, LEAD_SEARCH_ROUTES.get, async (request) => {
    const search = await findOwnSearch(db, principalOf(request).id, request.params.id);
    if (!search) throw notFound(NOT_FOUND);
    return { ...toSummary(search), stats: statsOf(search), progress: progressOf(search), coverage: search.coverage ?? null, leads: await allLeads(db, search.id) };
  });

  // Cancelling keeps what was delivered (and charges only that); the engine is told to stop.
  handle(app, LEAD_SEARCH_ROUTES.cancel, async (request) => {
    const userId = principalOf(request).id;
    const { id } = request.params;
    const ended = await db.transaction(async (trx) => {
      if (!(await findOwnSearch(trx, userId, id))) throw notFound(NOT_FOUND);
      const search = await lockSearch(trx, id);
      const result = search && await endSearch(trx, search, { status: 'cancelled', reason: 'cancelled', error: null });
      if (!result) throw conflict('This search has already finished', 'search_finished');
      await emitEvent(trx, 'search.cancelled', id, { search_id: id, user_id: userId });
      afterCommit(trx, () => {
        rt.ctx.relay.wake();
        rt.signals.changed(id);
      });
      return result;
    });
    await rt.settlement.settle(ended.id).catch((err) => request.log.warn({ err, searchId: id }, 'cancelled search not settled yet; the sweeper will retry'));
    const settled = await findOwnSearch(db, userId, id);
    return toSummary(settled ?? ended);
  });
}
