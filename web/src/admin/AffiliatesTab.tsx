import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorDetail } from '../api/client';
import { adminKeys, fetchAffiliateApplications, fetchPayoutBatches, runPayoutBatch } from './adminApi';
import { dateTime, dollars, whole } from './format';
import { useNotices } from './notices';
import { Pager } from './Pager';
import { useConfirm } from './useConfirm';

const PAGE_SIZE = 20;

/** This month as the payout routes name it (YYYY-MM, UTC). */
const currentPeriod = () => new Date().toISOString().slice(0, 7);

const BATCH_STATUS: Record<string, string> = {
  allocated: 'Allocated, not sent yet',
  submitting: 'Sending to PayPal',
  submitted: 'Sent to PayPal',
  failed: 'Failed (run again to retry)',
  empty: 'Nobody due',
};

/** Affiliate applications, and the monthly PayPal payouts with their history. */
export function AffiliatesTab() {
  const notices = useNotices();
  const queryClient = useQueryClient();
  const [confirm, confirmDialog] = useConfirm();
  const [page, setPage] = useState(1);
  const applications = useQuery({ queryKey: adminKeys.affiliateApplications(page), queryFn: () => fetchAffiliateApplications(page, PAGE_SIZE), placeholderData: keepPreviousData });
  const payouts = useQuery({ queryKey: adminKeys.payouts, queryFn: fetchPayoutBatches });
  const run = useMutation({
    mutationFn: runPayoutBatch,
    onMutate: () => notices.clear(),
    onSuccess: (batch) => {
      notices.success(batch.status === 'empty' ? `Nobody is due a payout for ${batch.period}.` : `Payout ${batch.period}: ${BATCH_STATUS[batch.status] ?? batch.status}, ${dollars(batch.total)} to ${whole(batch.items.length)} affiliates.`);
      void queryClient.invalidateQueries({ queryKey: adminKeys.payouts });
    },
    onError: (err) => notices.error(errorDetail(err, 'The payout could not be run')),
  });

  async function startPayout() {
    const period = currentPeriod();
    const ok = await confirm({
      title: `Run the payout for ${period}?`,
      message: 'Every affiliate whose payable commissions reach $50 is paid through PayPal now. Running it again later pays nobody twice.',
      confirmLabel: 'Run payout',
    });
    if (ok) run.mutate(period);
  }

  const list = applications.data?.applications ?? [];
  const batches = payouts.data?.batches ?? [];
  return (
    <div className="admin-tab-body">
      {confirmDialog}
      <section className="card admin-section" aria-labelledby="admin-payouts-heading" aria-busy={payouts.isFetching}>
        <div className="admin-section-head">
          <h2 id="admin-payouts-heading">Affiliate payouts</h2>
          <button type="button" className="btn btn-primary btn-sm" onClick={() => void startPayout()} disabled={run.isPending}>
            {run.isPending ? 'Running...' : `Run payout for ${currentPeriod()}`}
          </button>
        </div>
        {payouts.isError && <p className="alert alert-error">{errorDetail(payouts.error, 'Failed to load the payouts')}</p>}
        {payouts.isPending ? <p className="muted">Loading payouts...</p> : batches.length === 0 ? (
          <p className="muted">No payouts yet</p>
        ) : (
          <ul className="admin-records" data-testid="payout-list">
            {batches.map((b) => (
              <li key={b.id}>
                <strong>{b.period}</strong>
                <span>{BATCH_STATUS[b.status] ?? b.status}{b.mode === 'test' ? ' (test mode, no money moved)' : ''}</span>
                <span>{dollars(b.total)} to {whole(b.items.length)} {b.items.length === 1 ? 'affiliate' : 'affiliates'}</span>
                {b.items.map((item) => <span key={item.referrer_id} className="muted admin-break">{item.receiver}: {dollars(item.amount)}</span>)}
                {b.error && <span className="admin-bad">{b.error}</span>}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="card admin-section" aria-labelledby="admin-applications-heading" aria-busy={applications.isFetching}>
        <h2 id="admin-applications-heading">Affiliate applications {applications.data && <span className="muted">({whole(applications.data.page.total)})</span>}</h2>
        {applications.isError && <p className="alert alert-error">{errorDetail(applications.error, 'Failed to load the applications')}</p>}
        {applications.isPending ? <p className="muted">Loading applications...</p> : list.length === 0 ? (
          <p className="muted">No affiliate applications yet</p>
        ) : (
          <ul className="admin-contacts" data-testid="application-list">
            {list.map((a) => (
              <li key={a.id} className="admin-contact">
                <div className="admin-contact-head">
                  <strong>{a.name}</strong>
                  <time dateTime={a.submitted_at} className="muted">{dateTime(a.submitted_at)}</time>
                </div>
                <a href={`mailto:${a.email}`} className="admin-break">{a.email}</a>
                {a.website && <p className="admin-break">Website: {a.website}</p>}
                {a.message && <p>{a.message}</p>}
                <span className="muted">{a.user_id ? 'Signed in when applying' : 'Applied signed out'}</span>
              </li>
            ))}
          </ul>
        )}
        <Pager page={page} pageSize={PAGE_SIZE} total={applications.data?.page.total ?? 0} onPage={setPage} busy={applications.isFetching} />
      </section>
    </div>
  );
}
