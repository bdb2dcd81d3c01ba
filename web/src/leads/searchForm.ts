import { FILL_BOTH_FIELDS, MAX_LEADS_PER_REQUEST, insufficientCreditsDetail } from '@leadforge/contracts';

export const DEFAULT_QUANTITY = 10;

/** The spec: a non-numeric quantity becomes 0 (and is then refused as below the minimum). */
export function parseQuantity(input: string): number {
  const n = Number.parseInt(input.trim(), 10);
  return Number.isFinite(n) ? n : 0;
}

/** The quantity input's max: the smaller of 200 and the user's credits. */
export const maxQuantity = (credits: number): number => Math.max(0, Math.min(MAX_LEADS_PER_REQUEST, credits));

/** Why the maximum is what it is: the per-search cap, or (the spec's hint) the balance when that is lower. */
export const maxHint = (credits: number): string => credits >= MAX_LEADS_PER_REQUEST
  ? `Max: ${MAX_LEADS_PER_REQUEST} per search (you have ${credits.toLocaleString('en-US')} credits)`
  : `Max: ${maxQuantity(credits)} (based on your credits)`;

/** The spec's message when the balance is below the quantity; the generate button is disabled then. */
export function creditShortfall(credits: number, quantity: number): string | null {
  return quantity > credits ? insufficientCreditsDetail(credits, quantity) : null;
}

export interface SearchFormValues {
  industry: string;
  location: string;
  quantity: string;
}

/** The message to show instead of starting, or null when the search may start. */
export function searchFormError(values: SearchFormValues, credits: number): string | null {
  if (!values.industry.trim() || !values.location.trim()) return FILL_BOTH_FIELDS;
  const quantity = parseQuantity(values.quantity);
  const shortfall = creditShortfall(credits, quantity);
  if (shortfall) return shortfall;
  if (quantity < 1 || quantity > MAX_LEADS_PER_REQUEST) {
    return credits < 1 ? insufficientCreditsDetail(credits, 1) : `Please enter a quantity from 1 to ${maxQuantity(credits)}`;
  }
  return null;
}

export const LOW_CREDIT_THRESHOLD = 10;
