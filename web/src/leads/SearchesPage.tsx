import { useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { SearchStatus } from '@leadforge/contracts';
import { SearchHistory, STATUS_LABELS } from './SearchHistory';
import type { HistoryFilters } from './leadsApi';
import './leads.css';

const STATUSES = Object.keys(STATUS_LABELS) as SearchStatus[];

/** The filters as the address bar holds them, so a reload or a shared link shows the same list. */
function filtersOf(params: URLSearchParams): HistoryFilters {
  const status = params.get('status');
  return {
    q: params.get('q') ?? undefined,
    status: STATUSES.includes(status as SearchStatus) ? (status as SearchStatus) : undefined,
    from: params.get('from') ?? undefined,
    to: params.get('to') ?? undefined,
  };
}

/** `/searches`: every search of the user, filtered by words, days and status, a page at a time. */
export function SearchesPage() {
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  const [text, setText] = useState(filters.q ?? '');
  const ids = { q: useId(), from: useId(), to: useId(), status: useId() };
  const set = (key: keyof HistoryFilters, value: string) => setParams((current) => {
    const next = new URLSearchParams(current);
    if (value) next.set(key, value);
    else next.delete(key);
    return next;
  }, { replace: true });
  const badRange = Boolean(filters.from && filters.to && filters.from > filters.to);

  return (
    <div className="container dashboard-page searches-page">
      <header className="dashboard-head">
        <div>
          <h1>Searches</h1>
          <p className="muted">Every search you ran, with its leads: open one to see, filter and export them again at no charge.</p>
        </div>
        <Link to="/dashboard" className="btn btn-primary">New search</Link>
      </header>
      <form className="card history-filters" role="search" aria-label="Filter your searches" onSubmit={(event) => { event.preventDefault(); set('q', text.trim()); }}>
        <div className="field">
          <label htmlFor={ids.q}>Industry or location</label>
          <input id={ids.q} type="search" value={text} placeholder="e.g. dentists" maxLength={200} onChange={(event) => setText(event.target.value)} onBlur={() => set('q', text.trim())} />
        </div>
        <div className="field">
          <label htmlFor={ids.from}>From</label>
          <input id={ids.from} type="date" value={filters.from ?? ''} onChange={(event) => set('from', event.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={ids.to}>To</label>
          <input id={ids.to} type="date" value={filters.to ?? ''} onChange={(event) => set('to', event.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={ids.status}>Status</label>
          <select id={ids.status} value={filters.status ?? ''} onChange={(event) => set('status', event.target.value)}>
            <option value="">Any</option>
            {STATUSES.map((status) => <option key={status} value={status}>{STATUS_LABELS[status]}</option>)}
          </select>
        </div>
        <button type="submit" className="btn btn-secondary">Filter</button>
      </form>
      {badRange ? (
        <div className="alert alert-error" role="alert">The “From” day must be on or before the “To” day.</div>
      ) : (
        <SearchHistory
          pageSize={20}
          filters={filters}
          emptyText={Object.values(filters).some(Boolean) ? 'No search matches these filters.' : 'No searches yet. Start one from the dashboard.'}
        />
      )}
    </div>
  );
}
