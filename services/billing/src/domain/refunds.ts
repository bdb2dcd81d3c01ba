import type { Logger } from 'pino';
import type { Db } from '@leadforge/kit/db';
import { emitEvent } from '@leadforge/kit/events';
import type { PaymentProvider } from '../payments/paymentProvider.ts';
import type { RefundResponse } from '@leadforge/contracts';
import { purchasesTotal } from '../metrics.ts';
import { appendEntry, inTransaction, lockBalance } from './ledger.ts';
import { dollars, isAmountMismatch, type PurchaseRow } from './purchases.ts';

export interface ReversalDetails {
  refundId: string | null;
  actorId?: string;
  reason?: string;
}

export const refundView = (p: PurchaseRow): RefundResponse => ({
  purchase_id: p.id,
  status: 'refunded',
  amount: dollars(p.amount_cents),
  credits_reversed: p.credits_reversed ?? 0,
  credits_shortfall: p.credits_shortfall ?? 0,
  refunded_at: new Date(p.refunded_at!).toISOString(),
});

/**
 * Takes a refunded (or reversed) purchase's credits back, once. Credits already spent cannot be:
 * the balance goes to zero, never below, and the rest is recorded as the shortfall.
 */
export async function reversePurchase(db: Db, purchaseId: string, details: ReversalDetails): Promise<{ purchase: PurchaseRow; reversedNow: boolean }> {
  const result = await inTransaction(db, async (trx) => {
    const p: PurchaseRow = await trx('purchases').where({ id: purchaseId }).forUpdate().first();
    if (p.status === 'refunded') return { purchase: p, reversedNow: false };
    let taken = 0;
    if (p.user_id) {
      taken = Math.min(p.credits, await lockBalance(trx, p.user_id));
      if (taken > 0) {
        await appendEntry(trx, { userId: p.user_id, delta: -taken, reason: 'refund', ref: `purchase:${p.id}`, key: `refund:${p.id}`, actorId: details.actorId, note: details.reason });
      }
    }
    const [refunded]: PurchaseRow[] = await trx('purchases').where({ id: p.id }).update({
      status: 'refunded',
      refunded_at: trx.fn.now(),
      refund_id: details.refundId,
      credits_reversed: taken,
      credits_shortfall: p.credits - taken,
      refunded_by: details.actorId ?? null,
      refund_reason: details.reason ?? null,
      refunded_cents: p.amount_cents,
    }).returning('*');
    // Refunded in PayPal's dashboard while the buyer's request waited: the request is answered by it.
    await trx('refund_requests').where({ purchase_id: p.id, status: 'pending' }).update({
      status: 'refunded', amount_cents: p.amount_cents, credits_reversed: taken, credits_shortfall: p.credits - taken,
      decision_reason: details.reason ?? null, decided_at: trx.fn.now(), refunded_at: refunded.refunded_at, refund_id: details.refundId,
    });
    // A promo order nobody claimed was never announced as a sale, so its refund is not either.
    if (p.user_id) {
      await emitEvent(trx, 'purchase.refunded', p.user_id, {
        purchase_id: p.id,
        user_id: p.user_id,
        amount: dollars(p.amount_cents),
        credits_reversed: taken,
        refunded_at: new Date(refunded.refunded_at!).toISOString(),
      });
    }
    return { purchase: refunded, reversedNow: true };
  });
  if (result.reversedNow) purchasesTotal.inc({ kind: result.purchase.kind, outcome: 'refunded' });
  return result;
}

/**
 * A capture whose amount is not the order's is never honoured, so the buyer gets it all back at once:
 * refunded in full through the provider that took it, and recorded on the purchase (which stays
 * failed, with `refunded_at`). When the provider cannot be reached, the next execute or webhook retries.
 */
export async function refundMismatchedCapture(db: Db, provider: PaymentProvider, p: PurchaseRow, log: Logger): Promise<PurchaseRow> {
  if (!isAmountMismatch(p) || p.refunded_at || !p.capture_id) return p;
  try {
    const { refundId } = await provider.refundCapture(p.capture_id, p.id, null);
    const [refunded]: PurchaseRow[] = await db('purchases').where({ id: p.id, status: 'failed' }).whereNull('refunded_at')
      .update({ refunded_at: db.fn.now(), refund_id: refundId, refund_reason: 'captured amount did not match the order' }).returning('*');
    if (!refunded) return (await db('purchases').where({ id: p.id }).first()) as PurchaseRow;
    purchasesTotal.inc({ kind: p.kind, outcome: 'mismatch_refunded' });
    log.warn({ purchaseId: p.id, refundId, failure: p.failure }, 'capture amount did not match the order: refunded in full');
    return refunded;
  } catch (err) {
    log.error({ err, purchaseId: p.id }, 'could not refund a capture whose amount did not match; the next execute or webhook retries');
    return p;
  }
}
