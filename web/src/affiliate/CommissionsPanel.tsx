import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { affiliateKeys, fetchCommissions } from './affiliateApi';
import { formatDate, formatUsd } from './programme';

const PAGE_SIZE = 10;
const STATUS_LABELS = { pending: 'Pending', payable: 'Payable', paid: 'Paid', reversed: 'Reversed' } as const;
const planName = (planId: string) => planId.replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());

/** Commissions by state, the next payout, and each commission (paged). */
export function CommissionsPanel() {
  const [page, setPage] = useState(1);
  const { data: statement } = useQuery({
    queryKey: affiliateKeys.commissions(page, PAGE_SIZE),
    queryFn: () => fetchCommissions(page, PAGE_SIZE).catch((err: unknown) => {
      // Like the stats above it, the panel is left out when it cannot be read.
      console.error('Failed to load commissions:', err);
      throw err;
    }),
    // The page on screen stays while the next one loads.
    placeholderData: keepPreviousData,
  });

  if (!statement) return null;
  const { totals, next_payout: payout } = statement;
  const pages = Math.max(1, Math.ceil(statement.total / statement.page_size));

  return (
    <section className="commissions card" aria-labelledby="commissions-title">
      <h2 id="commissions-title">Your commissions</h2>
      <dl className="commission-totals">
        <div>
          <dt>Pending</dt>
          <dd data-testid="commissions-pending">{formatUsd(totals.pending)}</dd>
          <dd className="commission-total-note">In the 7-day refund window</dd>
        </div>
        <div>
          <dt>Payable</dt>
          <dd data-testid="commissions-payable">{formatUsd(totals.payable)}</dd>
          <dd className="commission-total-note">Ready for the next payout</dd>
        </div>
        <div>
          <dt>Paid</dt>
          <dd data-testid="commissions-paid">{formatUsd(totals.paid)}</dd>
          <dd className="commission-total-note">Sent to your PayPal</dd>
        </div>
      </dl>
      <p className="next-payout" data-testid="next-payout">
        Next payout: <strong>{formatDate(payout.date)}</strong>.{' '}
        {payout.threshold_reached
          ? `${formatUsd(payout.eligible_amount)} will be sent to your PayPal account.`
          : payout.eligible_amount > 0
            ? `${formatUsd(payout.eligible_amount)} will be due by then; balances under ${formatUsd(payout.minimum)} roll over to the following month.`
            : `Payouts are sent once your balance reaches ${formatUsd(payout.minimum)}.`}
      </p>
      {statement.total === 0 ? (
        <p className="muted commissions-empty">No commissions yet. Share your link: you earn 10% of every pack your referrals buy.</p>
      ) : (
        <>
          <div className="table-scroll" tabIndex={0} role="region" aria-label="Your commissions">
            <table className="commissions-table">
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">Pack</th>
                  <th scope="col">Sale</th>
                  <th scope="col">Commission</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {statement.commissions.map((c) => (
                  <tr key={c.id}>
                    <td>{formatDate(c.earned_at)}</td>
                    <td>{planName(c.plan_id)}</td>
                    <td>{formatUsd(c.sale_amount)}</td>
                    <td>{formatUsd(c.amount)}</td>
                    <td>
                      <span className={`status-badge status-${c.status}`}>{STATUS_LABELS[c.status]}</span>
                      {c.status === 'pending' && <span className="status-note">pending until {formatDate(c.payable_at)}</span>}
                      {c.refused_reason === 'shared_payer' && <span className="status-note">not earned: paid with your own PayPal account</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {pages > 1 && (
            <nav className="pager" aria-label="Commission pages">
              <button type="button" className="btn btn-secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                Previous
              </button>
              <span>
                Page {page} of {pages}
              </span>
              <button type="button" className="btn btn-secondary" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                Next
              </button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}
