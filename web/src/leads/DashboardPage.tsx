import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { Link } from 'react-router-dom';
import { useAuth } from '../auth/useAuth';
import { invalidateBalance, useBalance } from '../billing/balance';
import { formatCount } from '../billing/plans';
import { ActivityCard } from './ActivityCard';
import { activityKeys } from './activityApi';
import { CoverageSentence } from './CoverageSentence';
import { LeadForm } from './LeadForm';
import { leadSearchKeys } from './leadsApi';
import { LiveStats } from './LiveStats';
import { LowCreditWarning } from './LowCreditWarning';
import { SearchHistory, STATUS_LABELS } from './SearchHistory';
import { SearchProgressView } from './SearchProgressView';
import { SearchResults } from './SearchResults';
import { useLeadSearch } from './useLeadSearch';
import './leads.css';
import { WatchThisSearch } from '../monitors/WatchThisSearch';
import { PlacesStatusNotice } from '../locations/PlacesStatusNotice';

export function DashboardPage() {
  const { user } = useAuth();
  const balance = useBalance();
  const queryClient = useQueryClient();
  // The history and the activity charts show a search from its start; the balance follows its hold at the start and its
  // charge when the live feed says it ended.
  const onSearchChange = useCallback(() => {
    void invalidateBalance(queryClient);
    void queryClient.invalidateQueries({ queryKey: leadSearchKeys.history });
    void queryClient.invalidateQueries({ queryKey: activityKeys.all });
  }, [queryClient]);
  const { state, generate, cancel, showLatest } = useLeadSearch(onSearchChange);
  // Coming back to the dashboard shows the last search (followed live if it still runs), not an empty table.
  useEffect(() => {
    void showLatest();
  }, [showLatest]);

  if (!user) return null;
  const credits = balance ?? 0;
  const generating = state.phase === 'generating';
  const search = state.search;

  return (
    <div className="container dashboard-page">
      <header className="dashboard-head">
        <div>
          <h1>Dashboard</h1>
          <p className="muted">Find business contacts by industry and location. Leads appear as they are found.</p>
        </div>
        <p className="muted">Balance: <strong>{balance === undefined ? '…' : formatCount(balance)} credits</strong></p>
      </header>

      <PlacesStatusNotice />
      {balance !== undefined && <LowCreditWarning credits={balance} />}
      <WatchThisSearch search={!generating && search?.status === 'completed' ? search.summary : undefined} />

      <div className="dashboard-grid">
        <LeadForm credits={credits} busy={generating} serverError={state.error} onGenerate={(industry, location, quantity) => void generate(industry, location, quantity)} />
        <div className="dashboard-side">
          <LiveStats stats={state.stats} live={generating} ended={search && !generating ? STATUS_LABELS[search.status] : undefined} />
          <CoverageSentence stats={state.stats} search={state.search?.summary} ended={state.phase !== 'generating'} />
          {generating && search && <SearchProgressView progress={state.progress} quantity={search.summary.quantity} onCancel={() => void cancel()} />}
          {search && !generating && (
            <p className="muted search-link">
              <Link to={`/searches/${encodeURIComponent(search.summary.id)}`}>This search on its own page</Link>
            </p>
          )}
        </div>
      </div>

      <SearchResults
        state={state}
        idleText="Your leads will appear here. Fill in the form and press Generate Leads."
        onIncludeOwned={search ? () => void generate(search.summary.industry, search.summary.location, search.summary.quantity, true) : undefined}
      />

      <ActivityCard />

      <SearchHistory
        pageSize={5}
        headerExtra={<Link to="/searches">All searches</Link>}
        emptyText="No searches yet. Your searches and their leads are kept here, ready to reopen and export again."
      />
    </div>
  );
}
