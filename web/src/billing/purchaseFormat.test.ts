import { describe, expect, it } from 'vitest';
import { formatAmount, formatPurchaseDate, planLabel, recentPurchases, refundStatusText } from './purchaseFormat';

describe('purchase history formatting', () => {
  it('shows the plan id with underscores as spaces, upper-cased', () => {
    expect(planLabel('growth')).toBe('GROWTH');
    expect(planLabel('cbc500_promo')).toBe('CBC500 PROMO');
  });

  it('shows amounts in dollars with cents and dates without the time', () => {
    expect(formatAmount(49)).toBe('$49.00');
    expect(formatAmount(19.5)).toBe('$19.50');
    expect(formatPurchaseDate('2026-03-04T10:00:00.000Z')).toBe('Mar 4, 2026');
    expect(formatPurchaseDate(null)).toBe('—');
  });

  it('keeps the 5 most recent', () => {
    const purchases = Array.from({ length: 7 }, (_, i) => ({ id: String(i), plan_id: 'starter', amount: 19, credits: 100, status: 'completed', completed_at: null, refundable_until: null, refund_request: null }));
    expect(recentPurchases(purchases).map((p) => p.id)).toEqual(['0', '1', '2', '3', '4']);
  });

  it('tells the buyer where their refund request stands', () => {
    const request = { id: 'r', purchase_id: 'p', instant: false, reason: 'x', requested_at: '2026-03-04T10:00:00.000Z', decided_at: null, amount_refunded: null, credits_reversed: null, decision_reason: null };
    expect(refundStatusText({ ...request, status: 'pending' }).title).toBe('Refund requested.');
    expect(refundStatusText({ ...request, status: 'refunded', amount_refunded: 19.6, credits_reversed: 132, decision_reason: 'Unused part' }))
      .toEqual({ title: 'Refunded $19.60.', detail: '132 credits left your balance. Note: Unused part' });
    expect(refundStatusText({ ...request, status: 'declined', decision_reason: 'Used' })).toEqual({ title: 'Refund declined.', detail: 'Reason: Used' });
  });
});
