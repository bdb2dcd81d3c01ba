import { COMMISSION_RATE_BPS } from '@leadforge/contracts';

/** Dollars on the wire (a JSON number such as 49 or 19.99) to integer cents. */
export function toCents(dollars: number): number {
  if (!Number.isFinite(dollars) || dollars < 0) throw new Error(`not an amount of money: ${dollars}`);
  return Math.round(dollars * 100);
}

/** Integer cents back to dollars for the wire; exact for any cent amount. */
export const toDollars = (cents: number): number => Number((cents / 100).toFixed(2));

/** 10% of a sale in cents, half a cent rounded up: $49.00 -> 490, $19.99 -> 200. */
export function commissionCents(saleCents: number): number {
  return Math.floor((saleCents * COMMISSION_RATE_BPS + 5000) / 10000);
}
