import type { Purchase } from './paymentsApi';
import { formatAmount, formatPurchaseDate, planLabel, recentPurchases } from './purchaseFormat';

export type HistoryState = { status: 'loading' } | { status: 'ready'; purchases: Purchase[] } | { status: 'failed' };

/** The 5 most recent purchases: plan name, date, +credits, amount. */
export function PurchaseHistory({ state }: { state: HistoryState }) {
  return (
    <section className="card billing-section" aria-labelledby="purchase-history-title">
      <h2 id="purchase-history-title">Purchase history</h2>
      {state.status === 'loading' && <p className="muted">Loading your purchases…</p>}
      {state.status === 'failed' && <p className="muted">Your purchase history is not available right now.</p>}
      {state.status === 'ready' && state.purchases.length === 0 && <p className="muted">No purchases yet. Your credit packs will appear here.</p>}
      {state.status === 'ready' && state.purchases.length > 0 && (
        <ul className="purchase-list" data-testid="purchase-history">
          {recentPurchases(state.purchases).map((p) => (
            <li key={p.id} className="purchase-row">
              <div>
                <strong className="purchase-plan">{planLabel(p.plan_id)}</strong>
                <span className="muted purchase-date">
                  {formatPurchaseDate(p.completed_at)}
                  {p.status === 'refunded' && <span className="purchase-refunded"> · Refunded</span>}
                </span>
              </div>
              <span className="purchase-credits">+{p.credits.toLocaleString('en-US')} credits</span>
              <span className="purchase-amount">{formatAmount(p.amount)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
