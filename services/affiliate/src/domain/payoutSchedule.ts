/** Payouts run monthly: the next one is on the first day of next month (UTC). */
export function nextPayoutDate(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/** The month a payout batch pays for, YYYY-MM (UTC). */
export function payoutPeriod(now: Date): string {
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** PayPal refuses a sender_batch_id used in the last 30 days: one per month and product. */
export const senderBatchId = (period: string): string => `leadforge-affiliate-${period}`;
