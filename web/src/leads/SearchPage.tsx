import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useAuth } from '../auth/useAuth';
import { leadSearchKeys } from './leadsApi';
import { CoverageSentence } from './CoverageSentence';
import { LiveStats } from './LiveStats';
import { SearchCoverageView } from './SearchCoverageView';
import { searchTime, STATUS_LABELS } from './SearchHistory';
import { SearchProgressView } from './SearchProgressView';
import { SearchResults } from './SearchResults';
import { useLeadSearch } from './useLeadSearch';
import './leads.css';

/** `/searches/:id`: one search with its stats, coverage and leads (followed live while it runs); a reload shows the same. */
export function SearchPage() {
  const { id = '' } = useParams();
  const { user, refreshUser } = useAuth();
  const queryClient = useQueryClient();
  const onSearchChange = useCallback((ended: boolean) => {
    if (ended) void refreshUser();
    void queryClient.invalidateQueries({ queryKey: leadSearchKeys.history });
  }, [queryClient, refreshUser]);
  const { state, cancel, reopen } = useLeadSearch(onSearchChange);
  useEffect(() => {
    void reopen(id);
  }, [id, reopen]);

  const search = state.search;
  const generating = state.phase === 'generating';
  return (
    <div className="container dashboard-page search-page">
      <p className="muted"><Link to="/searches">← All searches</Link></p>
      <header className="dashboard-head">
        <div>
          <h1>{search ? `${search.summary.industry} in ${search.summary.location}` : 'Search'}</h1>
          {search && (
            <p className="muted">
              {searchTime(search.summary.created_at)} ·{' '}
              {/* One piece: on a phone the last dot wrapped alone before the badge. */}
              <span className="nowrap">
                {search.summary.quantity} {search.summary.quantity === 1 ? 'lead' : 'leads'} asked for ·{' '}
                <span className={`status-badge status-${search.status}`}>{STATUS_LABELS[search.status]}</span>
              </span>
            </p>
          )}
          {/* The place the geocoder took the location for, when the location typed was not already its full name. */}
          {search && state.coverage?.area.full_name && state.coverage.area.full_name !== search.summary.location && (
            <p className="muted search-place">Searched: {state.coverage.area.full_name}</p>
          )}
        </div>
      </header>
      {!search && state.error && <div className="alert alert-error" role="alert">{state.error}</div>}
      {!search && !state.error && <p className="muted">Loading the search…</p>}
      {search && (
        <>
          {state.error && <div className="alert alert-error" role="alert">{state.error}</div>}
          {search.candidates?.length ? (
            <div className="card search-candidates">
              <h2>Places to search instead</h2>
              <ul>{search.candidates.map((name) => <li key={name}>{name}</li>)}</ul>
              <p className="muted">Start a new search from the <Link to="/dashboard">dashboard</Link> and pick the place from the list under Location.</p>
            </div>
          ) : null}
          <div className="search-page-grid">
            <div className="dashboard-side">
              <LiveStats stats={state.stats} live={generating} ended={generating ? undefined : STATUS_LABELS[search.status]} balance={user?.credits} />
              <CoverageSentence stats={state.stats} coverage={state.coverage} search={search.summary} ended={!generating} />
            </div>
            {generating && <SearchProgressView progress={state.progress} quantity={search.summary.quantity} onCancel={() => void cancel()} />}
            {state.coverage && <SearchCoverageView coverage={state.coverage} />}
          </div>
          <SearchResults state={state} idleText="" />
        </>
      )}
    </div>
  );
}
