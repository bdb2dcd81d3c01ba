import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { LeadSearchSummary } from '@leadforge/contracts';
import { errorDetail } from '../api/client';
import { formatCount } from '../billing/plans';
import { ExportMenu } from './ExportMenu';
import { fetchSearchHistory, leadSearchKeys, type HistoryFilters } from './leadsApi';

export const STATUS_LABELS: Record<LeadSearchSummary['status'], string> = {
  running: 'Running', completed: 'Completed', failed: 'Failed', cancelled: 'Cancelled',
};

export const searchTime = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

interface Props {
  pageSize: number;
  filters?: HistoryFilters;
  /** Under the heading, e.g. a link to the whole history. */
  headerExtra?: ReactNode;
  /** What to say when there is no search at all (or none matches the filters). */
  emptyText: string;
}

/** The user's searches, newest first: each opens on its own page (`/searches/:id`) or exports again, free of charge. */
export function SearchHistory({ pageSize, filters = {}, headerExtra, emptyText }: Props) {
  const [page, setPage] = useState(1);
  const [exportError, setExportError] = useState('');
  // New filters start from the first page.
  const [shownFilters, setShownFilters] = useState(filters);
  if (JSON.stringify(shownFilters) !== JSON.stringify(filters)) {
    setShownFilters(filters);
    setPage(1);
  }
  // The dashboard marks the list stale when a search starts or ends.
  const history = useQuery({
    queryKey: leadSearchKeys.historyPage(page, pageSize, filters),
    queryFn: () => fetchSearchHistory(page, pageSize, filters),
    placeholderData: keepPreviousData,
  });
  const data = history.data;
  const error = exportError || (history.isError ? errorDetail(history.error, 'Could not load your search history.') : '');

  const pages = data ? Math.max(1, Math.ceil(data.total / pageSize)) : 1;
  return (
    <section className="card search-history" aria-labelledby="history-title" data-testid="search-history">
      <div className="card-head">
        <h2 id="history-title">Search history</h2>
        <div className="search-history-extra">
          {data && <span className="muted">{formatCount(data.total)} {data.total === 1 ? 'search' : 'searches'}</span>}
          {headerExtra}
        </div>
      </div>
      {error && <div className="alert alert-error" role="alert">{error}</div>}
      {history.isPending && <p className="muted">Loading your searches…</p>}
      {data && data.searches.length === 0 && <p className="muted">{emptyText}</p>}
      {data && data.searches.length > 0 && (
        <div className="leads-table-wrap">
          <table className="history-table">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Industry</th>
                <th scope="col">Location</th>
                <th scope="col" className="num">Leads</th>
                <th scope="col" className="num">Credits</th>
                <th scope="col">Status</th>
                <th scope="col"><span className="visually-hidden">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {data.searches.map((s) => (
                <tr key={s.id}>
                  <td className="nowrap">{searchTime(s.created_at)}</td>
                  <td>{s.industry}</td>
                  <td>{s.location}</td>
                  <td className="num">{formatCount(s.leads_count)}</td>
                  <td className="num">{formatCount(s.credits_used)}</td>
                  <td><span className={`status-badge status-${s.status}`}>{STATUS_LABELS[s.status]}</span></td>
                  <td className="history-actions">
                    <Link className="btn btn-secondary btn-sm" to={`/searches/${encodeURIComponent(s.id)}`} aria-label={`Open ${s.industry} in ${s.location}`}>Open</Link>
                    <ExportMenu search={s} disabled={s.leads_count === 0} compact onError={setExportError} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pages > 1 && (
        <nav className="pager" aria-label="Search history pages">
          <button type="button" className="btn btn-secondary btn-sm" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>Previous</button>
          <span className="muted">Page {page} of {pages}</span>
          <button type="button" className="btn btn-secondary btn-sm" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>Next</button>
        </nav>
      )}
    </section>
  );
}
