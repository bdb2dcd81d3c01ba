import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { errorDetail } from '../api/client';
import { STALE_TIME } from '../api/queryClient';
import { adminKeys, fetchProxyUsage, resetProxyStats, setProxyQuota } from './adminApi';
import { dataSize, dateTime, kbPerRequest, parseQuota, whole } from './format';
import { useNotices } from './notices';
import { PaymentProviderBlock } from './PaymentProviderBlock';
import { PlacesSourcesTable } from './PlacesSourcesTable';
import { useConfirm } from './useConfirm';

const TOP_DOMAINS = 5;
export const RESET_CONFIRMATION = 'Are you sure you want to reset all Decodo usage statistics? This action cannot be undone.';

/** Card 2 of the proxy tab: what the scraper's requests used, the quota and the reset. */
export function UsageStatsCard() {
  const notices = useNotices();
  const queryClient = useQueryClient();
  const [confirm, confirmDialog] = useConfirm();
  const [quota, setQuota] = useState('');
  // The period of the places sources' figures; the other figures are always since the last reset.
  const [days, setDays] = useState<number | undefined>();
  // Searches running anywhere add requests, so the figures go stale quickly.
  const usage = useQuery({
    queryKey: adminKeys.proxyUsageOf(days), queryFn: () => fetchProxyUsage(days), staleTime: STALE_TIME.live, placeholderData: keepPreviousData,
  });
  const stats = usage.data;
  const usageChanged = () => queryClient.invalidateQueries({ queryKey: adminKeys.proxyUsage });

  const quotaChange = useMutation({
    mutationFn: setProxyQuota,
    onMutate: () => notices.clear(),
    onSuccess: (answer) => {
      notices.success(answer.message);
      setQuota('');
      return usageChanged();
    },
    onError: (err) => notices.error(errorDetail(err, 'Failed to update quota')),
  });
  const statsReset = useMutation({
    mutationFn: resetProxyStats,
    onMutate: () => notices.clear(),
    onSuccess: (answer) => {
      notices.success(answer.message);
      return usageChanged();
    },
    onError: (err) => notices.error(errorDetail(err, 'Failed to reset statistics')),
  });
  const busy = quotaChange.isPending || statsReset.isPending;

  function saveQuota(event: FormEvent) {
    event.preventDefault();
    const value = parseQuota(quota);
    if (value === null) {
      notices.error('Please enter a valid quota amount');
      return;
    }
    quotaChange.mutate(value);
  }

  /** Never rejects (the dialog only resolves, the mutation puts its failure in the banner): its button calls it with `void`. */
  async function reset() {
    if (!(await confirm({ title: 'Reset usage statistics?', message: RESET_CONFIRMATION, confirmLabel: 'Reset statistics', danger: true }))) return;
    statsReset.mutate();
  }

  const topDomains = stats?.top_domains.slice(0, TOP_DOMAINS) ?? [];
  const topCount = topDomains[0]?.count ?? 0;

  return (
    <section className="card admin-section" aria-labelledby="admin-usage-heading" aria-busy={usage.isFetching}>
      {confirmDialog}
      <div className="admin-section-head">
        <h2 id="admin-usage-heading">Usage Statistics</h2>
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => void usage.refetch()} disabled={usage.isFetching}>{usage.isFetching ? 'Refreshing...' : 'Refresh'}</button>
      </div>
      {usage.isError ? <p className="alert alert-error">{errorDetail(usage.error, 'Failed to fetch usage statistics')}</p> : null}
      {!stats ? (usage.isPending ? <p className="muted">Loading usage statistics...</p> : null) : (
        <>
          <div className="admin-metric-grid" data-testid="usage-metrics">
            <Metric label="Successful requests" value={whole(stats.total_successful)} tone="ok" />
            <Metric label="Failed requests" value={whole(stats.total_failed)} tone="bad" />
            <Metric label="Success rate" value={`${Number(stats.success_rate.toFixed(2))}%`} />
            <Metric label="Remaining quota" value={whole(stats.quota.remaining_requests)} />
            <Metric label="Avg response time" value={`${Math.round(stats.avg_response_time_ms)} ms`} />
            <Metric label="Total requests" value={whole(stats.total_requests)} />
            <Metric label="Total data" value={dataSize(stats.total_traffic_mb, stats.total_traffic_kb)} />
            <Metric label="Avg per request" value={`${kbPerRequest(stats.total_traffic_kb, stats.total_requests)} KB`} />
          </div>
          <div className="admin-subsection">
            <h3>Top target domains</h3>
            {topDomains.length === 0 ? <p className="muted">No requests recorded yet</p> : (
              <ul className="admin-bars">
                {topDomains.map((d) => (
                  <li key={d.domain}>
                    <span className="admin-bar-label">{d.domain}</span>
                    <span className="admin-bar-track"><span className="admin-bar-fill" style={{ width: `${topCount ? (d.count / topCount) * 100 : 0}%` }} /></span>
                    <span className="admin-num">{whole(d.count)}</span>
                  </li>
                ))}
              </ul>
            )}
          </div>
          <PlacesSourcesTable sources={stats.places_sources} days={days} onDaysChange={setDays} />
        </>
      )}
      <div className="admin-subsection admin-inline-forms">
        <form onSubmit={saveQuota} className="admin-inline-form" noValidate>
          <div className="field">
            <label htmlFor="admin-quota">Set remaining quota (requests)</label>
            <input id="admin-quota" type="number" min={0} step={1} inputMode="numeric" placeholder="e.g. 10000" value={quota} onChange={(e) => setQuota(e.target.value)} />
          </div>
          <button type="submit" className="btn btn-primary" disabled={busy}>{quotaChange.isPending ? 'Updating...' : 'Update Quota'}</button>
        </form>
        <button type="button" className="btn btn-danger-outline" onClick={() => void reset()} disabled={busy}>{statsReset.isPending ? 'Resetting...' : 'Reset Stats'}</button>
      </div>
      <PaymentProviderBlock />
      <p className="muted admin-updated">Last updated: {stats?.last_updated ? dateTime(stats.last_updated) : 'Never'}</p>
    </section>
  );
}

function Metric({ label, value, tone }: { label: string; value: string; tone?: 'ok' | 'bad' }) {
  return (
    <div className="admin-metric">
      <span className="muted">{label}</span>
      <strong className={tone === 'ok' ? 'admin-ok' : tone === 'bad' ? 'admin-bad' : undefined}>{value}</strong>
    </div>
  );
}
