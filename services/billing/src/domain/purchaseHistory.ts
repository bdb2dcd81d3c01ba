import type { Db } from '@leadforge/kit/db';
import type { Purchase } from '@leadforge/contracts';
import { dollars, refundableUntil, type PurchaseRow } from './purchases.ts';
import { refundRequestView, type RefundRequestRow } from './refundRequests.ts';

/** The user's completed (and refunded) purchases, newest first, each with its refund request. */
export async function purchaseHistory(db: Db, userId: string, limit: number): Promise<Purchase[]> {
  const rows: PurchaseRow[] = await db('purchases')
    .where({ user_id: userId })
    .whereIn('status', ['completed', 'refunded'])
    .orderBy('completed_at', 'desc')
    .limit(limit);
  const requests: RefundRequestRow[] = rows.length ? await db('refund_requests').whereIn('purchase_id', rows.map((r) => r.id)) : [];
  const requestOf = new Map(requests.map((r) => [r.purchase_id, r]));
  const now = Date.now();
  return rows.map((r) => {
    const request = requestOf.get(r.id);
    const until = refundableUntil(r);
    return {
      id: r.id,
      plan_id: r.plan_id,
      amount: dollars(r.amount_cents),
      credits: r.credits,
      status: r.status,
      completed_at: r.completed_at ? new Date(r.completed_at).toISOString() : null,
      // Only while the buyer may still ask: the page offers "Request a refund" by it.
      refundable_until: until && until.getTime() > now ? until.toISOString() : null,
      refund_request: request ? refundRequestView(request) : null,
    };
  });
}
