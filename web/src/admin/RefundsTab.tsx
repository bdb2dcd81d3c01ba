import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { AdminRefundRequest, PaymentMode, RefundRequestStatus } from '@leadforge/contracts';
import { errorDetail } from '../api/client';
import { adminKeys, approveRefund, declineRefund, fetchRefunds, type RefundsQuery } from './adminApi';
import { dateTime, dollars, whole } from './format';
import { useNotices } from './notices';
import { Pager } from './Pager';

const PAGE_SIZE = 20;
const REASON_MIN = 3;

const FILTERS: { value: RefundsQuery['status']; label: string }[] = [
  { value: 'open', label: 'Open' },
  { value: 'refunded', label: 'Refunded' },
  { value: 'declined', label: 'Declined' },
  { value: 'all', label: 'All' },
];

const STATUS_BADGE: Record<RefundRequestStatus, string> = {
  pending: 'admin-badge admin-badge-warning',
  processing: 'admin-badge admin-badge-danger',
  refunded: 'admin-badge admin-badge-success',
  declined: 'admin-badge',
};

const STATUS_LABEL: Record<RefundRequestStatus, string> = { pending: 'waiting', processing: 'not finished', refunded: 'refunded', declined: 'declined' };

/** Which checkout took the payment, and so refunds it. */
export const MODE_LABEL: Record<PaymentMode, string> = { sandbox: 'PayPal sandbox', live: 'PayPal live', test: 'Test checkout (no money moves)' };

type Decision = { kind: 'full' | 'partial' | 'decline' | 'retry'; request: AdminRefundRequest };

/** A partial refund's suggestion: the unspent credits' share of the price. */
export const suggestedAmount = (r: AdminRefundRequest) => Math.floor((r.purchase_amount * 100 * r.unspent_credits) / r.purchase_credits) / 100;

/** The Refunds queue: buyers' 7-day refund requests whose pack was partly used, decided here. */
export function RefundsTab({ onChanged }: { onChanged(): void }) {
  const notices = useNotices();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<RefundsQuery['status']>('open');
  const [page, setPage] = useState(1);
  const [deciding, setDeciding] = useState<Decision | null>(null);
  const query: RefundsQuery = { status, page, page_size: PAGE_SIZE };
  const list = useQuery({ queryKey: adminKeys.refunds(query), queryFn: () => fetchRefunds(query), placeholderData: keepPreviousData });
  const decision = useMutation({
    mutationFn: ({ kind, request, reason, amount }: Decision & { reason: string; amount?: number }) =>
      kind === 'decline' ? declineRefund(request.id, reason) : approveRefund(request.id, reason, amount),
    onMutate: () => notices.clear(),
    onSuccess: (answer) => {
      setDeciding(null);
      if (answer.request.status === 'processing') notices.error(answer.message);
      else notices.success(answer.message);
      onChanged();
      return queryClient.invalidateQueries({ queryKey: adminKeys.refundsAll });
    },
  });
  const requests = list.data?.requests ?? [];

  return (
    <div className="admin-tab-body">
      {deciding && (
        <RefundDecisionDialog
          decision={deciding}
          sending={decision.isPending}
          error={decision.isError ? errorDetail(decision.error, 'The refund request could not be updated') : ''}
          onSend={(reason, amount) => decision.mutate({ ...deciding, reason, amount })}
          onCancel={() => { setDeciding(null); decision.reset(); }}
        />
      )}
      <div className="admin-toolbar">
        <div className="field">
          <label htmlFor="admin-refund-status">Show</label>
          <select id="admin-refund-status" value={status} onChange={(e) => { setStatus(e.target.value as RefundsQuery['status']); setPage(1); }}>
            {FILTERS.map((f) => <option key={f.value} value={f.value}>{f.label}</option>)}
          </select>
        </div>
      </div>

      <section className="card admin-section" aria-labelledby="admin-refunds-heading" aria-busy={list.isFetching}>
        <h2 id="admin-refunds-heading">Refund requests {list.data && <span className="muted">({whole(list.data.total)}; {whole(list.data.open)} open)</span>}</h2>
        <p className="muted">An unspent pack is refunded at once without you; these had credits used. Approving refunds through the checkout that took the payment and removes the pack&apos;s credits still in the balance (never below zero).</p>
        {list.isError ? <p className="alert alert-error">{errorDetail(list.error, 'Failed to fetch refund requests')}</p> : null}
        {list.isPending ? <p className="muted">Loading refund requests...</p> : list.isError && !list.data ? null : requests.length === 0 ? (
          <p className="muted">{status === 'open' ? 'No refund requests are waiting.' : 'No refund requests here.'}</p>
        ) : (
          <div className="admin-table-wrap">
            <table className="admin-table admin-table-cards" data-testid="refund-requests">
              <thead>
                <tr><th>Buyer</th><th>Purchase</th><th>Reason</th><th>Unspent</th><th>Status</th><th>Actions</th></tr>
              </thead>
              <tbody>
                {requests.map((r) => (
                  <tr key={r.id}>
                    <td className="admin-refund-buyer">
                      <strong className="admin-break">{r.user_name || 'Deleted account'}</strong>
                      <div className="muted admin-break">{r.user_email ?? ''}</div>
                      <div className="muted">asked <time dateTime={r.requested_at}>{dateTime(r.requested_at)}</time></div>
                    </td>
                    <td data-label="Pack">
                      <div>
                        {r.plan_id} · {dollars(r.purchase_amount)} · {whole(r.purchase_credits)} credits
                        <div className="muted">{r.purchased_at ? dateTime(r.purchased_at) : ''} · {MODE_LABEL[r.provider_mode]}</div>
                      </div>
                    </td>
                    <td data-label="Reason" className="admin-break">{r.reason ?? ''}</td>
                    <td data-label="Unspent">{r.status === 'pending' ? whole(r.unspent_credits) : '—'}</td>
                    <td data-label="Status">
                      <div>
                        <span className={STATUS_BADGE[r.status]}>{STATUS_LABEL[r.status]}</span>
                        {r.instant && <span className="muted"> at once</span>}
                        <RefundOutcome request={r} />
                      </div>
                    </td>
                    <td>
                      <div className="admin-actions">
                        {r.status === 'pending' && (
                          <>
                            <button type="button" className="btn btn-primary btn-sm" onClick={() => setDeciding({ kind: 'full', request: r })}>Approve {dollars(r.purchase_amount)}</button>
                            <button type="button" className="btn btn-secondary btn-sm" onClick={() => setDeciding({ kind: 'partial', request: r })}>Partial...</button>
                            <button type="button" className="btn btn-danger-outline btn-sm" onClick={() => setDeciding({ kind: 'decline', request: r })}>Decline</button>
                          </>
                        )}
                        {r.status === 'processing' && (
                          <>
                            <button type="button" className="btn btn-primary btn-sm" onClick={() => setDeciding({ kind: 'retry', request: r })}>Retry refund</button>
                            {r.last_error?.startsWith('PayPal refused') && (
                              <button type="button" className="btn btn-danger-outline btn-sm" onClick={() => setDeciding({ kind: 'decline', request: r })}>Decline</button>
                            )}
                          </>
                        )}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager page={page} pageSize={PAGE_SIZE} total={list.data?.total ?? 0} onPage={setPage} busy={list.isFetching} />
      </section>
    </div>
  );
}

function RefundOutcome({ request: r }: { request: AdminRefundRequest }) {
  if (r.status === 'refunded') {
    return (
      <div className="muted">
        {dollars(r.amount_refunded ?? 0)} back, {whole(r.credits_reversed ?? 0)} credits removed via {MODE_LABEL[r.provider_mode]}
        {r.refund_id ? ` (refund ${r.refund_id})` : ''}{r.decision_reason ? `. ${r.decision_reason}` : ''}
      </div>
    );
  }
  if (r.status === 'declined') return <div className="muted">{r.decision_reason}</div>;
  if (r.status === 'processing') return <div className="admin-refund-error">{r.last_error ?? 'Waiting for the provider to confirm.'}</div>;
  return null;
}

const TITLES: Record<Decision['kind'], string> = {
  full: 'Approve the full refund?',
  partial: 'Approve a partial refund?',
  decline: 'Decline this refund request?',
  retry: 'Retry this refund?',
};

function decisionText({ kind, request: r }: Decision): string {
  switch (kind) {
    case 'full': return `${dollars(r.purchase_amount)} goes back to ${r.user_name || 'the buyer'} through ${MODE_LABEL[r.provider_mode]}; up to ${whole(r.purchase_credits)} credits leave the balance (${whole(r.unspent_credits)} of this pack are still there).`;
    case 'partial': return `The amount goes back through ${MODE_LABEL[r.provider_mode]}, and the same share of the pack's ${whole(r.purchase_credits)} credits leaves the balance (as far as it holds them).`;
    case 'decline': return r.status === 'processing'
      ? 'The provider refused this refund, so no money moved: the credits taken back when it started are given back to the buyer.'
      : 'Nothing is refunded and the credits stay. The buyer sees your reason under Purchase history.';
    case 'retry': return `The same refund (${dollars(r.amount_refunded ?? 0)}) is asked for again; the provider never makes it twice.`;
  }
}

interface DialogProps {
  decision: Decision;
  sending: boolean;
  error: string;
  onSend(reason: string, amount?: number): void;
  onCancel(): void;
}

/** Confirms a decision with its reason (and, for a partial refund, the amount). */
function RefundDecisionDialog({ decision, sending, error, onSend, onCancel }: DialogProps) {
  const titleId = useId();
  const amountId = useId();
  const reasonId = useId();
  const first = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const { kind, request } = decision;
  const [amount, setAmount] = useState(kind === 'partial' ? suggestedAmount(request).toFixed(2) : '');
  const [reason, setReason] = useState(kind === 'retry' ? request.decision_reason ?? 'Retry' : '');
  const [hint, setHint] = useState('');

  useEffect(() => {
    first.current?.focus();
    const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape' && !sending) onCancel(); };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [sending, onCancel]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (reason.trim().length < REASON_MIN) {
      setHint(`Please give a reason of at least ${REASON_MIN} characters.`);
      return;
    }
    let dollarsBack: number | undefined;
    if (kind === 'partial') {
      dollarsBack = Number(amount);
      if (!/^\d+(\.\d{1,2})?$/.test(amount.trim()) || dollarsBack <= 0 || dollarsBack > request.purchase_amount) {
        setHint(`Please enter an amount from $0.01 to ${dollars(request.purchase_amount)}.`);
        return;
      }
    }
    setHint('');
    onSend(reason.trim(), dollarsBack);
  }

  return (
    <div className="admin-dialog-backdrop" onClick={() => { if (!sending) onCancel(); }}>
      <form className="admin-dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} onClick={(e) => e.stopPropagation()} onSubmit={submit} noValidate>
        <h2 id={titleId}>{TITLES[kind]}</h2>
        <p>{decisionText(decision)}</p>
        {kind === 'partial' && (
          <div className="field">
            <label htmlFor={amountId}>Amount to refund (USD, at most {dollars(request.purchase_amount)})</label>
            <input id={amountId} ref={first} inputMode="decimal" value={amount} onChange={(e) => { setAmount(e.target.value); setHint(''); }} disabled={sending} />
            <p className="field-hint">Suggested: {dollars(suggestedAmount(request))}, the share of the {whole(request.unspent_credits)} unspent credits.</p>
          </div>
        )}
        {kind !== 'retry' && (
          <div className="field">
            <label htmlFor={reasonId}>Reason{kind === 'decline' ? ' (the buyer sees it)' : ''}</label>
            <textarea id={reasonId} ref={kind === 'partial' ? undefined : first} rows={3} maxLength={500} value={reason} onChange={(e) => { setReason(e.target.value); setHint(''); }} disabled={sending} />
          </div>
        )}
        {(hint || error) && <p className="alert alert-error" role="alert">{hint || error}</p>}
        <div className="admin-dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={sending}>Cancel</button>
          <button type="submit" className={kind === 'decline' ? 'btn btn-danger' : 'btn btn-primary'} disabled={sending}>
            {sending ? 'Working...' : kind === 'decline' ? 'Decline' : kind === 'retry' ? 'Retry refund' : 'Refund'}
          </button>
        </div>
      </form>
    </div>
  );
}
