import { PLANS, type Plan } from '../billing/plans';

/** The programme's terms as the spec states them (the server applies the same ones). */
export const COMMISSION_PERCENT = 10;
export const MINIMUM_PAYOUT_USD = 50;
export const REFERRAL_WINDOW_DAYS = 60;
export const COMMISSION_HOLD_DAYS = 7;
/** How long the "Link copied" notice stays. */
export const LINK_COPIED_MS = 2000;

/** The commission on one pack, in dollars, computed in cents: $19 -> 1.9. */
export const commissionOn = (plan: Plan): number => Math.round(plan.price * 100 * COMMISSION_PERCENT / 100) / 100;

export const COMMISSION_EXAMPLES = PLANS.map((plan) => ({ plan, commission: commissionOn(plan) }));

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
export const formatUsd = (amount: number): string => usd.format(amount);

/** "December 1, 2026" for a YYYY-MM-DD or ISO date, read as UTC. */
export function formatDate(value: string): string {
  return new Date(value.length === 10 ? `${value}T00:00:00Z` : value).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}
