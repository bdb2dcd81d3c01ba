import crypto from 'node:crypto';
import type { Db } from '@leadforge/kit/db';
import { emitEvent, payerKeys } from '@leadforge/kit/events';
import { REFUND_WINDOW_DAYS, type PaymentMode } from '@leadforge/contracts';
import { purchasesTotal, revenueCents } from '../metrics.ts';
import type { CaptureView } from '../payments/paymentProvider.ts';
import { appendEntry, inTransaction, type Trx } from './ledger.ts';

export type PurchaseStatus = 'created' | 'pending' | 'completed' | 'failed' | 'refunded';

export interface PurchaseRow {
  id: string;
  kind: 'plan' | 'promo';
  plan_id: string;
  user_id: string | null;
  amount_cents: number;
  currency: 'USD';
  credits: number;
  provider_mode: PaymentMode;
  provider_order_id: string | null;
  capture_id: string | null;
  status: PurchaseStatus;
  failure: string | null;
  created_at: Date;
  completed_at: Date | null;
  claimed_at: Date | null;
  refunded_at: Date | null;
  refunded_cents: number | null;
  credits_reversed: number | null;
  credits_shortfall: number | null;
  claim_token_hash: string | null;
  /** Hashes of who paid (payerKeys), once the provider named the payer. */
  payer_keys: string[] | null;
}

export interface NewPurchase {
  kind: 'plan' | 'promo';
  planId: string;
  userId: string | null;
  amountCents: number;
  credits: number;
  mode: PaymentMode;
  /** Promo orders: the hash of the buyer's claim token. */
  claimTokenHash?: string;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function createPurchase(db: Db, input: NewPurchase): Promise<PurchaseRow> {
  const [row] = await db('purchases').insert({
    id: crypto.randomUUID(),
    kind: input.kind,
    plan_id: input.planId,
    user_id: input.userId,
    amount_cents: input.amountCents,
    credits: input.credits,
    provider_mode: input.mode,
    status: 'created',
    claim_token_hash: input.claimTokenHash ?? null,
  }).returning('*');
  purchasesTotal.inc({ kind: input.kind, outcome: 'created' });
  return row;
}

export async function attachProviderOrder(db: Db, purchaseId: string, orderId: string): Promise<void> {
  await db('purchases').where({ id: purchaseId }).update({ provider_order_id: orderId });
}

/** Marks a purchase that has not completed as failed (a completed one never goes back). */
export async function markFailed(db: Db | Trx, purchaseId: string, failure: string): Promise<void> {
  const changed = await db('purchases').where({ id: purchaseId }).whereIn('status', ['created', 'pending']).update({ status: 'failed', failure: failure.slice(0, 500) });
  if (changed) purchasesTotal.inc({ kind: 'any', outcome: 'failed' });
}

export async function findPurchase(db: Db | Trx, id: string): Promise<PurchaseRow | undefined> {
  return UUID.test(id) ? db('purchases').where({ id }).first() : undefined;
}

export async function findByOrderId(db: Db, orderId: string, kind: 'plan' | 'promo'): Promise<PurchaseRow | undefined> {
  return db('purchases').where({ provider_order_id: orderId, kind }).first();
}

export const dollars = (cents: number) => cents / 100;

/** A purchase whose capture came back for another amount than ours: never granted, refunded. */
export const isAmountMismatch = (p: Pick<PurchaseRow, 'status' | 'failure'>) => p.status === 'failed' && !!p.failure?.startsWith('amount mismatch');

/** Until when the buyer may ask for the 7-day refund; null once it is not a completed purchase. */
export function refundableUntil(p: Pick<PurchaseRow, 'status' | 'completed_at'>): Date | null {
  if (p.status !== 'completed' || !p.completed_at) return null;
  return new Date(new Date(p.completed_at).getTime() + REFUND_WINDOW_DAYS * 24 * 3600 * 1000);
}

/**
 * Adds a completed purchase's credits to its owner, once (ledger key), and announces the sale.
 * A promo order without an owner yet is granted when an account claims it.
 */
export async function grantPurchase(trx: Trx, p: PurchaseRow): Promise<boolean> {
  if (!p.user_id || p.status !== 'completed') return false;
  const reason = p.kind === 'plan' ? 'purchase' : 'promo';
  const { applied } = await appendEntry(trx, { userId: p.user_id, delta: p.credits, reason, ref: `purchase:${p.id}`, key: `${reason}:${p.id}` });
  if (applied) {
    await emitEvent(trx, 'purchase.completed', p.user_id, {
      purchase_id: p.id,
      user_id: p.user_id,
      plan_id: p.plan_id,
      amount: dollars(p.amount_cents),
      currency: p.currency,
      credits: p.credits,
      completed_at: new Date(p.completed_at!).toISOString(),
      ...(p.provider_mode === 'test' ? { test: true } : {}),
      ...(p.payer_keys?.length ? { payer_keys: p.payer_keys } : {}),
    });
  }
  return applied;
}

/** The payer's keys to store, when this report of the capture names the payer (a webhook's does not: the ones stored stay). */
const payerColumns = (capture: CaptureView) => {
  const keys = payerKeys(capture.payer);
  return keys.length ? { payer_keys: JSON.stringify(keys) } : {};
};

export type CaptureRecord =
  | { outcome: 'completed'; purchase: PurchaseRow; newlyCompleted: boolean }
  | { outcome: 'pending' | 'failed' | 'amount_mismatch' | 'refunded'; purchase: PurchaseRow };

/**
 * Applies what the provider says about a capture (from the execute call or a webhook). Under the
 * purchase row lock, so any number of concurrent callers complete and grant exactly once; grants
 * only a COMPLETED capture whose amount and currency are what we asked for.
 */
export async function recordCapture(db: Db, purchaseId: string, capture: CaptureView): Promise<CaptureRecord> {
  const record = await inTransaction(db, async (trx): Promise<CaptureRecord> => {
    const p: PurchaseRow = await trx('purchases').where({ id: purchaseId }).forUpdate().first();
    if (p.status === 'completed') return { outcome: 'completed', purchase: p, newlyCompleted: false };
    if (p.status === 'refunded') return { outcome: 'refunded', purchase: p };
    if (isAmountMismatch(p)) return { outcome: 'amount_mismatch', purchase: p };

    if (capture.status === 'COMPLETED') {
      if (capture.amountCents !== p.amount_cents || capture.currency !== p.currency) {
        const failure = `amount mismatch: captured ${capture.currency} ${capture.amountCents ?? '?'} cents, expected ${p.currency} ${p.amount_cents}`;
        const [failed] = await trx('purchases').where({ id: p.id }).update({ status: 'failed', failure, capture_id: capture.captureId }).returning('*');
        return { outcome: 'amount_mismatch', purchase: failed };
      }
      const [completed]: PurchaseRow[] = await trx('purchases').where({ id: p.id })
        .update({ status: 'completed', capture_id: capture.captureId, completed_at: trx.fn.now(), failure: null, ...payerColumns(capture) }).returning('*');
      await grantPurchase(trx, completed);
      return { outcome: 'completed', purchase: completed, newlyCompleted: true };
    }
    if (capture.status === 'PENDING') {
      const [pending] = await trx('purchases').where({ id: p.id }).update({ status: 'pending', capture_id: capture.captureId, ...payerColumns(capture) }).returning('*');
      return { outcome: 'pending', purchase: pending };
    }
    await markFailed(trx, p.id, `capture ${capture.status}`);
    return { outcome: 'failed', purchase: { ...p, status: 'failed' } };
  });
  if (record.outcome === 'completed' && record.newlyCompleted) {
    purchasesTotal.inc({ kind: record.purchase.kind, outcome: 'completed' });
    revenueCents.inc({ mode: record.purchase.provider_mode }, record.purchase.amount_cents);
  } else if (record.outcome === 'pending' || record.outcome === 'amount_mismatch') {
    purchasesTotal.inc({ kind: record.purchase.kind, outcome: record.outcome });
  }
  return record;
}
