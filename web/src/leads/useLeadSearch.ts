import { useCallback, useEffect, useRef, useState } from 'react';
import { isAxiosError } from 'axios';
import type { Lead, LeadSearchDetail, LeadSearchSummary, LeadStats, SearchProgress, SearchStatus } from '@leadforge/contracts';
import { errorDetail } from '../api/client';
import { cancelLeadSearch, fetchLeadSearch, fetchSearchHistory, startLeadSearch } from './leadsApi';
import { FeedError, followSearchFeed } from './searchFeed';

export type Phase = 'idle' | 'generating' | 'done';

/** The search on screen: the one just generated, or one reopened from the history. */
export interface ShownSearch {
  summary: Pick<LeadSearchSummary, 'id' | 'industry' | 'location' | 'quantity' | 'created_at'>;
  status: SearchStatus;
  /** A failed search's places to search instead (did you mean; the places an ambiguous name names). */
  candidates?: string[];
}

export interface LeadSearchState {
  phase: Phase;
  search: ShownSearch | null;
  leads: Lead[];
  stats: LeadStats | null;
  progress: SearchProgress | null;
  /** What the search covered, when the engine has said. */
  coverage: LeadSearchDetail['coverage'];
  error: string;
}

const initial: LeadSearchState = { phase: 'idle', search: null, leads: [], stats: null, progress: null, coverage: null, error: '' };

/** The spec's lead-generation error text: 402 shows the server's detail, others are prefixed. */
function generationError(err: unknown): string {
  if (isAxiosError(err) && err.response?.status === 402) return errorDetail(err, 'Insufficient credits');
  if (err instanceof FeedError) return `Failed to generate leads: ${err.detail}`;
  const message = err instanceof Error ? err.message : String(err);
  return `Failed to generate leads: ${errorDetail(err, message)}`;
}

/**
 * One lead search on the dashboard: start it, follow its live feed (leads appear as they are found),
 * cancel it, or reopen a past one. `onChange` runs when a search starts and when it ends (`ended`),
 * to refresh the history and the balance.
 */
export function useLeadSearch(onChange: (ended: boolean) => void) {
  const [state, setState] = useState<LeadSearchState>(initial);
  const following = useRef<AbortController | null>(null);
  const changedRef = useRef(onChange);
  changedRef.current = onChange;

  useEffect(() => () => following.current?.abort(), []);

  const follow = useCallback(async (id: string) => {
    following.current?.abort();
    const abort = new AbortController();
    following.current = abort;
    try {
      await followSearchFeed(id, (type, data) => {
        setState((s) => {
          if (s.search?.summary.id !== id) return s;
          if (type === 'progress') {
            const progress = data as SearchProgress;
            return { ...s, progress, coverage: progress.coverage ?? s.coverage };
          }
          if (type === 'leads') {
            const batch = data as { leads: Lead[]; stats: LeadStats };
            return { ...s, leads: [...s.leads, ...batch.leads], stats: batch.stats, progress: s.progress && { ...s.progress, leads_found: batch.stats.total_found } };
          }
          const finished = data as { status: SearchStatus; error: string | null; error_candidates?: string[]; stats: LeadStats };
          return {
            ...s,
            phase: 'done',
            stats: finished.stats,
            coverage: finished.stats.coverage ?? s.coverage,
            search: s.search && { ...s.search, status: finished.status, candidates: finished.error_candidates },
            error: finished.status === 'failed' ? `Failed to generate leads: ${finished.error ?? 'the search failed'}` : '',
          };
        });
      }, abort.signal);
    } catch (err) {
      if (abort.signal.aborted) return;
      setState((s) => (s.search?.summary.id === id ? { ...s, phase: 'done', error: generationError(err) } : s));
    }
    if (following.current === abort) changedRef.current(true);
  }, []);

  const generate = useCallback(async (industry: string, location: string, quantity: number, includeOwned = false) => {
    following.current?.abort();
    setState({ ...initial, phase: 'generating' });
    let summary: LeadSearchSummary;
    try {
      summary = await startLeadSearch({ industry: industry.trim(), location: location.trim(), quantity, ...(includeOwned ? { include_owned: true } : {}) });
    } catch (err) {
      setState({ ...initial, error: generationError(err) });
      changedRef.current(true);
      return;
    }
    setState((s) => ({ ...s, search: { summary, status: 'running' }, progress: { places_found: 0, websites_checked: 0, leads_found: 0 } }));
    changedRef.current(false);
    await follow(summary.id);
  }, [follow]);

  const cancel = useCallback(async () => {
    const id = state.search?.summary.id;
    if (!id) return;
    try {
      await cancelLeadSearch(id);
    } catch (err) {
      // 409: it finished on its own meanwhile; the feed brings the result.
      if (!(isAxiosError(err) && err.response?.status === 409)) setState((s) => ({ ...s, error: errorDetail(err, 'Could not cancel the search; please try again.') }));
    }
  }, [state.search?.summary.id]);

  /** Shows a past search with its leads; a search still running is followed live from its start. */
  const reopen = useCallback(async (id: string) => {
    following.current?.abort();
    try {
      const detail = await fetchLeadSearch(id);
      const running = detail.status === 'running';
      setState({
        phase: running ? 'generating' : 'done',
        search: { summary: detail, status: detail.status, candidates: detail.error_candidates },
        leads: running ? [] : detail.leads,
        stats: detail.stats,
        progress: detail.progress,
        coverage: detail.coverage ?? null,
        error: detail.status === 'failed' && detail.error ? `Failed to generate leads: ${detail.error}` : '',
      });
      if (running) await follow(id);
    } catch (err) {
      setState({ ...initial, error: errorDetail(err, 'Could not open this search; please try again.') });
    }
  }, [follow]);

  const stateRef = useRef(state);
  stateRef.current = state;
  /** Shows the user's latest search, unless a search is already on screen (or being started). */
  const showLatest = useCallback(async () => {
    try {
      const [latest] = (await fetchSearchHistory(1, 1)).searches;
      if (latest && stateRef.current.phase === 'idle' && !stateRef.current.search) await reopen(latest.id);
    } catch {
      // The history shows the same failure; the form still works.
    }
  }, [reopen]);

  return { state, generate, cancel, reopen, showLatest };
}
