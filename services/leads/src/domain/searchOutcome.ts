import type { EventData, SearchFailureCode, SearchStatus } from '@leadforge/contracts';
import { searchesTotal } from '../metrics.ts';
import { afterCommit } from './searchFeed.ts';
import type { SearchRow, Trx } from './searchRecord.ts';

export interface Outcome {
  status: Exclude<SearchStatus, 'running'>;
  reason: string;
  error: string | null;
  /** Why it failed, for a program; absent for an outcome that is no failure of the directory. */
  code?: SearchFailureCode;
  /** Places to search instead. */
  candidates?: string[];
}

export const SOURCE_FAILED_ERROR = 'The business directory could not be searched right now. Nothing was charged; please try again in a few minutes.';
/** The search failed because the leads the engine found could not be stored (their event was parked). */
export const INTAKE_FAILED_ERROR = 'The leads found could not be stored. Nothing was charged; please try again in a few minutes.';

const NOTHING_CHARGED = 'Nothing was charged';

/** The words of each failure: what happened and what helps (retrying helps only when the directory was away). */
export function failureText(code: SearchFailureCode | undefined, location: string, candidates: string[] = []): string {
  switch (code) {
    case 'location_not_found':
      return `We could not find "${location}" on the map. ${NOTHING_CHARGED}; check the spelling or pick the place from the suggestions.`
        + (candidates.length ? ` Did you mean ${candidates[0]}?` : '');
    case 'location_ambiguous':
      return `"${location}" names several places${candidates.length ? `, such as ${candidates.slice(0, 3).join('; ')}` : ''}. ${NOTHING_CHARGED}; pick the one you mean and search again.`;
    case 'provider_unreachable':
      return `The business directory could not be reached. ${NOTHING_CHARGED}; please try again in a few minutes.`;
    case 'provider_quota_exhausted':
      return `The business directory refuses more searches for now: its quota is used up. ${NOTHING_CHARGED}; please try again later.`;
    case 'no_source_configured':
      return `No business directory is set up to search yet. ${NOTHING_CHARGED}; an administrator needs to configure a places source.`;
    default:
      return SOURCE_FAILED_ERROR;
  }
}

/**
 * What an engine's finish means for the user. A source that failed before any lead arrived fails the
 * search (nothing charged), saying why; one that failed part-way still delivered leads, which are kept and charged.
 */
export function outcomeOfEngineFinish(search: SearchRow, finished: Pick<EventData<'scrape.finished'>, 'reason' | 'failure'>): Outcome {
  const { reason, failure } = finished;
  if (reason === 'cancelled') return { status: 'cancelled', reason, error: null };
  if (reason === 'source_failed' && search.leads_count === 0) {
    const code = failure?.code ?? 'provider_error';
    const candidates = failure?.candidates ?? [];
    return { status: 'failed', reason, error: failureText(code, search.location, candidates), code, candidates };
  }
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
      error_code: outcome.code ?? null,
      error_candidates: outcome.candidates?.length ? JSON.stringify(outcome.candidates) : null,
      credits_used: outcome.status === 'failed' ? 0 : search.leads_count - search.owned_count,
      finished_at: trx.fn.now(),
    })
    .returning('*');
  if (ended) afterCommit(trx, () => searchesTotal.inc({ outcome: outcome.status }));
  return ended;
}
