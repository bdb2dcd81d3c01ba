import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useAuth } from '../auth/useAuth';
import { formatCount } from '../billing/plans';
import { CoverageSentence } from '../leads/CoverageSentence';
import { LeadForm } from '../leads/LeadForm';
import { leadSearchKeys } from '../leads/leadsApi';
import { LeadsTable } from '../leads/LeadsTable';
import { LiveStats } from '../leads/LiveStats';
import { LowCreditWarning } from '../leads/LowCreditWarning';
import { SearchHistory } from '../leads/SearchHistory';
import { SearchProgressView } from '../leads/SearchProgressView';
import { SkippedOwnedNotice } from '../leads/SkippedOwnedNotice';
import { ExportMenu } from '../leads/ExportMenu';
import { useLeadSearch } from '../leads/useLeadSearch';
import { useFreshBalance } from '../leads/useFreshBalance';
import '../leads/leads.css';
import { WatchThisSearch } from '../monitors/WatchThisSearch';
import { WatchThisSearch } from '../monitors/WatchThisSearch';

export function DashboardPage() {
  const { user, refreshUser } = useAuth();
  const queryClient = useQueryClient();
  // An export's failure belongs to the search it was for: another search on screen does not show it.
  const [exportFailure, setExportFailure] = useState<{ searchId?: string; detail: string }>({ detail: '' });
  // The history shows a search from its start; when it ends, the header badge shows the new balance at once.
  const onSearchChange = useCallback((ended: boolean) => {
    if (ended) void refreshUser();
    void queryClient.invalidateQueries({ queryKey: leadSearchKeys.history });
  }, [queryClient, refreshUser]);
  const { state, generate, cancel, reopen } = useLeadSearch(onSearchChange);
  useFreshBalance();
  const exportError = exportFailure.searchId === state.search?.summary.id ? exportFailure.detail : '';

  if (!user) return null;
  const generating = state.phase === 'generating';
  const search = state.search;

  return (
    <div className="container dashboard-page">
      <header className="dashboard-head">
        <div>
          <h1>Dashboard</h1>
          <p className="muted">Find business contacts by industry and location. Leads appear as they are found.</p>
        </div>
        <p className="muted">Balance: <strong>{formatCount(user.credits)} credits</strong></p>
      </header>

      <LowCreditWarning credits={user.credits} />
      <WatchThisSearch search={!generating && search?.status === 'completed' ? search.summary : undefined} />
      <WatchThisSearch search={!generating && search?.status === 'completed' ? search.summary : undefined} />

      <div className="dashboard-grid">
        <LeadForm credits={user.credits} busy={generating} serverError={state.error} onGenerate={(industry, location, quantity) => void generate(industry, location, quantity)} />
        <div className="dashboard-side">
          <LiveStats stats={state.stats} live={generating} />
          <CoverageSentence stats={state.stats} search={state.search?.summary} ended={state.phase !== 'generating'} />
          {generating && search && <SearchProgressView progress={state.progress} quantity={search.summary.quantity} onCancel={() => void cancel()} />}
        </div>
      </div>

      <section className="card results-card" aria-labelledby="results-title">
        <div className="card-head">
          <div>
            <h2 id="results-title">Results{state.leads.length ? ` (${formatCount(state.leads.length)})` : ''}</h2>
            {search && <p className="muted">{search.summary.industry} in {search.summary.location}</p>}
          </div>
          <ExportMenu search={search?.summary} disabled={state.leads.length === 0} onError={(detail) => setExportFailure({ searchId: search?.summary.id, detail })} />
        </div>
        {exportError && <div className="alert alert-error" role="alert">{exportError}</div>}
        {search && !generating && (
          <SkippedOwnedNotice
            skipped={state.stats?.skipped_owned ?? 0}
            busy={generating}
            onInclude={() => void generate(search.summary.industry, search.summary.location, search.summary.quantity, true)}
          />
        )}
        <LeadsTable
          leads={state.leads}
          emptyText={generating ? 'Looking for businesses… the first leads appear here within seconds.' : search ? 'This search found no leads. Nothing was charged for it.' : 'Your leads will appear here. Fill in the form and press Generate Leads.'}
        />
      </section>

      <SearchHistory openId={search?.summary.id ?? null} onOpen={(id) => void reopen(id)} />
    </div>
  );
}
