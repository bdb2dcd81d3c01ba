import type { Purchase } from './paymentsApi';
import { formatAmount, formatPurchaseDate, planLabel, recentPurchases, refundStatusText } from './purchaseFormat';

export type HistoryState = { status: 'loading' } | { status: 'ready'; purchases: Purchase[] } | { status: 'failed' };

interface Props {
  state: HistoryState;
  /** Opens the refund confirmation for a purchase still inside its 7-day window. */
  onRequestRefund(purchase: Purchase): void;
}

/** The server gives `refundable_until` only while the window is open (and refuses a late request anyway). */
const canRequestRefund = (p: Purchase) => !p.refund_request && p.refundable_until !== null;

/** The 5 most recent purchases: plan name, date, +credits, amount, and the 7-day refund. */
export function PurchaseHistory({ state, onRequestRefund }: Props) {
  return (
    <section className="card billing-section" aria-labelledby="purchase-history-title">
      <h2 id="purchase-history-title">Purchase history</h2>
      {state.status === 'loading' && <p className="muted">Loading your purchases…</p>}
      {state.status === 'failed' && <p className="muted">Your purchase history is not available right now.</p>}
      {state.status === 'ready' && state.purchases.length === 0 && <p className="muted">No purchases yet. Your credit packs will appear here.</p>}
      {state.status === 'ready' && state.purchases.length > 0 && (
        <ul className="purchase-list" data-testid="purchase-history">
          {recentPurchases(state.purchases).map((p) => {
            const refund = p.refund_request ? refundStatusText(p.refund_request) : null;
            return (
              <li key={p.id} className="purchase-row">
                <div>
                  <strong className="purchase-plan">{planLabel(p.plan_id)}</strong>
                  <span className="muted purchase-date">
                    {formatPurchaseDate(p.completed_at)}
                    {p.status === 'refunded' && !refund && <span className="purchase-refunded"> · Refunded</span>}
                  </span>
                </div>
                <span className="purchase-credits">+{p.credits.toLocaleString('en-US')} credits</span>
                <span className="purchase-amount">{formatAmount(p.amount)}</span>
                {refund && (
                  <p className={`purchase-refund purchase-refund-${p.refund_request!.status}`} data-testid="refund-status">
                    <strong>{refund.title}</strong> {refund.detail}
                  </p>
                )}
                {canRequestRefund(p) && (
                  <p className="purchase-refund">
                    <button type="button" className="purchase-refund-button" onClick={() => onRequestRefund(p)}>Request a refund</button>
                    <span className="muted"> until {formatPurchaseDate(p.refundable_until)}</span>
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
