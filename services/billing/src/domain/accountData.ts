import type { Db } from '@leadforge/kit/db';
import type { Trx } from './ledger.ts';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** What billing holds about one user, for their data export: purchases, the credit ledger, holds. */
export async function accountData(db: Db, userId: string) {
  const [purchases, ledger, reservations, signup, refundRequests] = await Promise.all([
    db('purchases').where({ user_id: userId }).orderBy('created_at'),
    db('credit_ledger').where({ user_id: userId }).orderBy('id'),
    db('credit_reservations').where({ user_id: userId }).orderBy('created_at'),
    db('signups').where({ user_id: userId }).first(),
    db('refund_requests').where({ user_id: userId }).orderBy('requested_at'),
  ]);
  const balance = await db('credit_balances').where({ user_id: userId }).first();
  return {
    balance: balance?.balance ?? 0,
    signup: signup ? { promo_order_id: signup.promo_order_id, promo_outcome: signup.promo_outcome, created_at: iso(signup.created_at) } : null,
    purchases: purchases.map((p) => ({
      id: p.id,
      kind: p.kind,
      plan_id: p.plan_id,
      amount: p.amount_cents / 100,
      currency: p.currency,
      credits: p.credits,
      status: p.status,
      provider_mode: p.provider_mode,
      provider_order_id: p.provider_order_id,
      created_at: iso(p.created_at),
      completed_at: iso(p.completed_at),
      refunded_at: iso(p.refunded_at),
      credits_reversed: p.credits_reversed,
    })),
    refund_requests: refundRequests.map((r) => ({
      id: r.id, purchase_id: r.purchase_id, status: r.status, reason: r.reason, requested_at: iso(r.requested_at), decided_at: iso(r.decided_at),
      amount_refunded: r.amount_cents === null ? null : r.amount_cents / 100, credits_reversed: r.credits_reversed, decision_reason: r.decision_reason,
    })),
    credit_ledger: ledger.map((e) => ({ id: e.id, delta: e.delta, balance_after: e.balance_after, reason: e.reason, ref: e.ref, note: e.note, created_at: iso(e.created_at) })),
    credit_holds: reservations.map((r) => ({ id: r.id, amount: r.amount, charged: r.charged, status: r.status, ref: r.ref, created_at: iso(r.created_at), finished_at: iso(r.finished_at) })),
  };
}

/**
 * A deleted account's purchases stay for accounting (amounts, ids, dates) but lose the free text
 * written about them (refund reasons, failure messages), who asked for a refund, and who paid (the payer's hashes, the test checkout's payer). The
 * ledger is append-only and holds only ids, amounts and reasons.
 */
export async function eraseAccountData(trx: Trx, userId: string): Promise<void> {
  const purchaseIds = trx('purchases').where({ user_id: userId }).select('id');
  await trx('purchases').where({ user_id: userId }).update({ refund_reason: null, failure: null, payer_keys: null });
  await trx('test_checkout_orders').whereIn('purchase_id', purchaseIds).update({ payer_id: null });
  await trx('refund_requests').where({ user_id: userId }).update({ user_email: null, user_name: null, reason: null, decision_reason: null });
}
