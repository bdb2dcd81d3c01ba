import type { SearchStatus } from '@leadforge/contracts';
import { searchesTotal } from '../metrics.ts';
import { afterCommit } from './searchFeed.ts';
import type { SearchRow, Trx } from './searchRecord.ts';

export interface Outcome {
  status: Exclude<SearchStatus, 'running'>;
  reason: string;
  error: string | null;
}

export const SOURCE_FAILED_ERROR = 'The business directory could not be searched right now. Nothing was charged; please try again in a few minutes.';
/** The search failed because the leads the engine found could not be stored (their event was parked). */
export const INTAKE_FAILED_ERROR = 'The leads found could not be stored. Nothing was charged; please try again in a few minutes.';

/**
 * What an engine's finish means for the user. A source that failed before any lead arrived fails the
 * search (nothing charged); one that failed part-way still delivered leads, which are kept and charged.
 */
export function outcomeOfEngineFinish(search: SearchRow, reason: string): Outcome {
  if (reason === 'cancelled') return { status: 'cancelled', reason, error: null };
  if (reason === 'source_failed' && search.leads_count === 0) return { status: 'failed', reason, error: SOURCE_FAILED_ERROR };
  return { status: 'completed', reason, error: null };
}

/**
 * Ends a running search (row locked by the caller): from here no lead is taken and the charge is
 * fixed at the leads delivered (none for a failed search). Returns undefined if it had already ended,
 * so of several enders (engine, user, deadline) exactly one wins.
 */
export async function endSearch(trx: Trx, search: SearchRow, outcome: Outcome): Promise<SearchRow | undefined> {
  if (search.status !== 'running') return undefined;
  const [ended]: SearchRow[] = await trx('lead_searches')
    .where({ id: search.id, status: 'running' })
    .update({
      status: outcome.status,
      reason: outcome.reason,
      error: outcome.error,
      credits_used: outcome.status === 'failed' ? 0 : search.leads_count - search.owned_count,
      finished_at: trx.fn.now(),
    })
    .returning('*');
  if (ended) afterCommit(trx, () => searchesTotal.inc({ outcome: outcome.status }));
  return ended;
}
