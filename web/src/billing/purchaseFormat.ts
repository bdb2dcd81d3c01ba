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
