import type { RefundRequestView } from '@leadforge/contracts';
import type { Purchase } from './paymentsApi';

/** The spec's history label: the plan id with underscores as spaces, upper-cased ("cbc500_promo" -> "CBC500 PROMO"). */
export const planLabel = (planId: string): string => planId.replace(/_/g, ' ').toUpperCase();

export const formatAmount = (amount: number): string => `$${amount.toFixed(2)}`;

export function formatPurchaseDate(iso: string | null): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}

/** The spec shows the 5 most recent purchases. */
export const recentPurchases = (purchases: Purchase[]): Purchase[] => purchases.slice(0, 5);

/** What the buyer reads about their refund request, by its status. */
export function refundStatusText(request: RefundRequestView): { title: string; detail: string } {
  switch (request.status) {
    case 'pending':
      return { title: 'Refund requested.', detail: 'Part of this pack has been used, so an administrator is reviewing your request.' };
    case 'processing':
      return { title: 'Refund under way.', detail: 'The payment provider has not confirmed it yet; it finishes on its own.' };
    case 'refunded':
      return {
        title: `Refunded ${formatAmount(request.amount_refunded ?? 0)}.`,
        detail: `${(request.credits_reversed ?? 0).toLocaleString('en-US')} credits left your balance.${request.decision_reason ? ` Note: ${request.decision_reason}` : ''}`,
      };
    case 'declined':
      return { title: 'Refund declined.', detail: request.decision_reason ? `Reason: ${request.decision_reason}` : '' };
  }
}
