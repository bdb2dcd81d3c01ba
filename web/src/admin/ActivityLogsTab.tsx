import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorDetail } from '../api/client';
import { STALE_TIME } from '../api/queryClient';
import { adminKeys, fetchActivityLogs, type ActivityQuery } from './adminApi';
import { activityLabel, activitySummary, dateTime, shortId, whole } from './format';

const PAGE_SIZE = 50;
const FILTERS = [
  { value: '', label: 'All activity' },
  { value: 'scrape', label: 'Lead Generation' },
  { value: 'payment', label: 'Payments' },
  { value: 'refund', label: 'Refunds' },
  { value: 'admin_action', label: 'Admin actions' },
];

/** Newest first, paged by cursor: `cursors` holds the cursor of every page before the current one. */
export function ActivityLogsTab() {
  const [type, setType] = useState('');
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const query: ActivityQuery = { ...(type ? { type } : {}), limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) };
  const logs = useQuery({
    queryKey: adminKeys.activity(query),
    queryFn: () => fetchActivityLogs(query),
    // The page on screen stays while the next one loads; new activity arrives all the time.
    placeholderData: keepPreviousData,
    staleTime: STALE_TIME.live,
  });
  const entries = logs.data?.logs ?? [];
  const page = cursors.length + 1;

  return (
    <div className="admin-tab-body">
      <section className="card admin-section" aria-labelledby="admin-activity-heading" aria-busy={logs.isFetching}>
        <div className="admin-section-head">
          <h2 id="admin-activity-heading">Activity Logs {logs.data && <span className="muted">({whole(logs.data.total)})</span>}</h2>
          <div className="field admin-inline-field">
            <label htmlFor="admin-activity-type">Show</label>
            <select id="admin-activity-type" value={type} onChange={(e) => { setType(e.target.value); setCursors([]); }}>
              {FILTERS.map((f) => <option key={f.value} value={f.value}>{f.label}</option>)}
            </select>
          </div>
        </div>
        {logs.isError ? <p className="alert alert-error">{errorDetail(logs.error, 'Failed to fetch admin data')}</p> : null}
        {logs.isPending ? <p className="muted">Loading activity...</p> : logs.isError && !logs.data ? null : entries.length === 0 ? (
          <p className="muted">No activity yet</p>
        ) : (
          <ol className="admin-activity" data-testid="activity-list">
            {entries.map((entry) => (
              <li key={entry.id} className={`admin-activity-${entry.type}`}>
                <span className="admin-activity-type">{activityLabel(entry.type)}</span>
                <span className="admin-activity-user" title={entry.user_id}>
                  <code>{shortId(entry.user_id)}</code>
                  {(entry.user_name || entry.user_email) && <small className="muted">{entry.user_name ?? entry.user_email}</small>}
                </span>
                <span className="admin-activity-summary">{activitySummary(entry)}</span>
                <time dateTime={entry.timestamp}>{dateTime(entry.timestamp)}</time>
              </li>
            ))}
          </ol>
        )}
        {(cursors.length > 0 || logs.data?.next_cursor) && (
          <nav className="admin-pager" aria-label="Activity pages">
            <button type="button" className="btn btn-secondary btn-sm" disabled={logs.isFetching || cursors.length === 0} onClick={() => setCursors((c) => c.slice(0, -1))}>Newer</button>
            <span>Page {page}</span>
            <button type="button" className="btn btn-secondary btn-sm" disabled={logs.isFetching || !logs.data?.next_cursor} onClick={() => setCursors((c) => [...c, logs.data!.next_cursor!])}>Older</button>
          </nav>
        )}
      </section>
    </div>
  );
}
