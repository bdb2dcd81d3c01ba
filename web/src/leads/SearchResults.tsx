import { useState } from 'react';
import { matchesFilter, NO_FILTER, type LeadFilter } from '@leadforge/contracts';
import { formatCount } from '../billing/plans';
import { ExportMenu } from './ExportMenu';
import { LeadsTable } from './LeadsTable';
import { SkippedOwnedNotice } from './SkippedOwnedNotice';
import type { LeadSearchState } from './useLeadSearch';

interface Props {
  state: LeadSearchState;
  /** Runs the search again with the businesses the user already has (free); absent where it cannot run from here. */
  onIncludeOwned?(): void;
  /** What the table says before any search is shown. */
  idleText: string;
}

/** A search's leads: the exports of the whole search, the owned-skipped notice, the table (filters, selection). */
export function SearchResults({ state, onIncludeOwned, idleText }: Props) {
  // An export's failure belongs to the search it was for: another search on screen does not show it.
  const [exportFailure, setExportFailure] = useState<{ searchId?: string; detail: string }>({ detail: '' });
  const search = state.search;
  const generating = state.phase === 'generating';
  const exportError = exportFailure.searchId === search?.summary.id ? exportFailure.detail : '';
  const failed = (detail: string) => setExportFailure({ searchId: search?.summary.id, detail });
  // The table's filter, kept here so the exports above it hold what it shows; a new search starts unfiltered.
  const [filterOf, setFilterOf] = useState<{ searchId?: string; filter: LeadFilter }>({ filter: NO_FILTER });
  const filter = filterOf.searchId === search?.summary.id ? filterOf.filter : NO_FILTER;
  const shown = filter === NO_FILTER ? state.leads.length : state.leads.filter((lead) => matchesFilter(lead, filter)).length;
  const filtered = shown !== state.leads.length ? { filter, shown, total: state.leads.length } : undefined;
  return (
    <section className="card results-card" aria-labelledby="results-title">
      <div className="card-head">
        <div>
          <h2 id="results-title">Results{state.leads.length ? ` (${formatCount(state.leads.length)})` : ''}</h2>
          {search && <p className="muted">{search.summary.industry} in {search.summary.location}</p>}
        </div>
        <ExportMenu search={search?.summary} disabled={shown === 0} filtered={filtered} onError={failed} />
      </div>
      {exportError && <div className="alert alert-error" role="alert">{exportError}</div>}
      {search && !generating && onIncludeOwned && (
        <SkippedOwnedNotice skipped={state.stats?.skipped_owned ?? 0} busy={generating} onInclude={onIncludeOwned} />
      )}
      <LeadsTable
        // A new search starts with nothing selected.
        key={search?.summary.id ?? 'none'}
        leads={state.leads}
        search={search?.summary}
        filter={filter}
        onFilterChange={(next) => setFilterOf({ searchId: search?.summary.id, filter: next })}
        onExportError={failed}
        emptyText={generating ? 'Looking for businesses… the first leads appear here within seconds.' : search ? 'This search found no leads. Nothing was charged for it.' : idleText}
      />
    </section>
  );
}
