import { useQuery } from '@tanstack/react-query';
import { errorDetail } from '../api/client';
import { adminKeys, fetchProxyStats } from './adminApi';
import { dateTime, splitBalance } from './format';

// No proxy configured is a choice (the scraper fetches directly), not a failure: it is shown neutral, not red.
const PROXY_TONE: Record<string, string> = { Connected: 'admin-dot-ok', 'Not configured': 'admin-dot-off' };
const TEST_TONE = { Success: 'admin-ok', Failed: 'admin-bad', 'Not configured': 'muted' } as const;

/** Card 1 of the proxy tab: the proxy account as the scraper service sees it. */
export function ProxyStatusCard() {
  // Each read asks the proxy provider's account API, so it is read when the tab opens and on Refresh, not on focus.
  const proxy = useQuery({ queryKey: adminKeys.proxyStats, queryFn: fetchProxyStats, refetchOnWindowFocus: false });
  const stats = proxy.data;
  const balance = stats ? splitBalance(stats.balance) : undefined;
  return (
    <section className="card admin-section" aria-labelledby="admin-proxy-heading" aria-busy={proxy.isFetching}>
      <div className="admin-section-head">
        <h2 id="admin-proxy-heading">Decodo Proxy Statistics</h2>
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => void proxy.refetch()} disabled={proxy.isFetching}>
          {proxy.isFetching ? 'Refreshing...' : 'Refresh Stats'}
        </button>
      </div>
      {proxy.isError ? <p className="alert alert-error">{errorDetail(proxy.error, 'Failed to fetch proxy statistics')}</p> : null}
      {stats?.error && <p className="alert alert-error" data-testid="proxy-error">{stats.error}</p>}
      {stats?.note && <p className="alert alert-warning" data-testid="proxy-note">{stats.note}</p>}
      {!stats ? (proxy.isPending ? <p className="muted">Loading proxy statistics...</p> : null) : (
        <dl className="admin-facts">
          <div>
            <dt>Connection</dt>
            <dd><span className={`admin-dot ${PROXY_TONE[stats.status] ?? 'admin-dot-bad'}`} aria-hidden="true" />{stats.status}</dd>
          </div>
          <div>
            <dt>Connection test</dt>
            <dd className={TEST_TONE[stats.connection_test]} data-testid="proxy-connection-test">{stats.connection_test}</dd>
          </div>
          <div>
            <dt>Account balance</dt>
            <dd>{balance!.amount}{balance!.note && <small className="muted admin-balance-note">{balance!.note}</small>}</dd>
          </div>
          <div>
            <dt>Username</dt>
            <dd>{stats.username ?? '—'}</dd>
          </div>
          <div>
            <dt>Last updated</dt>
            <dd>{stats.last_updated ? dateTime(stats.last_updated) : 'Never'}</dd>
          </div>
        </dl>
      )}
    </section>
  );
}
