import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { COMMISSION_HOLD_DAYS, type CommissionStatus, type EventData } from '@leadforge/contracts';
import { emitEvent, payerEmailKey } from '@leadforge/kit/events';
import { lockBuyer } from './buyerLock.ts';
import { commissionCents, toCents, toDollars } from './cents.ts';

type Tx = Knex.Transaction;
const DAY_MS = 24 * 3600 * 1000;

export interface CommissionRow {
  id: string;
  referrer_id: string;
  referred_user_id: string;
  purchase_id: string;
  amount_cents: number;
  paid_cents: number;
  status: CommissionStatus;
  earned_at: Date;
  hold_until: Date;
  allocated_item_id: string | null;
  paid_at: Date | null;
  reversed_at: Date | null;
  refused_reason: 'shared_payer' | null;
}

interface PurchaseRow {
  purchase_id: string;
  user_id: string;
  plan_id: string | null;
  amount_cents: number | null;
  refunded_cents: number;
  completed_at: Date | null;
  payer_keys: string[] | null;
}

/** Announces a commission's new state (the admin panel and future payout reports read it). */
export async function announce(trx: Tx, row: CommissionRow): Promise<void> {
  await emitEvent(trx, 'commission.changed', row.referrer_id, {
    commission_id: row.id,
    referrer_id: row.referrer_id,
    referred_user_id: row.referred_user_id,
    purchase_id: row.purchase_id,
    amount: toDollars(Number(row.amount_cents)),
    status: row.status,
  });
}

/**
 * purchase.completed: remember the sale (and who paid it); if the buyer was referred, the referrer
 * earns 10% of it. A referrer's own purchase may reveal that a referred buyer paid with the
 * referrer's PayPal account, so the commissions still held on their buyers are settled again.
 */
export async function recordPurchase(trx: Tx, data: EventData<'purchase.completed'>): Promise<void> {
  if (data.currency.toUpperCase() !== 'USD') throw new Error(`purchase ${data.purchase_id} is in ${data.currency}; commissions are paid on USD sales only`);
  await lockBuyer(trx, data.user_id);
  const payerKeys = data.payer_keys?.length ? JSON.stringify(data.payer_keys) : null;
  await trx('purchases')
    .insert({ purchase_id: data.purchase_id, user_id: data.user_id, plan_id: data.plan_id, amount_cents: toCents(data.amount), completed_at: data.completed_at, payer_keys: payerKeys })
    .onConflict('purchase_id')
    // A refund seen first left the sale's amount unknown; fill it in, never change a known one.
    .merge({
      plan_id: data.plan_id,
      amount_cents: trx.raw('coalesce(purchases.amount_cents, excluded.amount_cents)'),
      completed_at: trx.raw('coalesce(purchases.completed_at, excluded.completed_at)'),
      payer_keys: trx.raw('coalesce(purchases.payer_keys, excluded.payer_keys)'),
    });
  await settleCommission(trx, data.purchase_id);
  if (!payerKeys) return;
  const held: { purchase_id: string }[] = await trx('commissions').where({ referrer_id: data.user_id }).whereIn('status', ['pending', 'payable']).select('purchase_id');
  for (const { purchase_id } of held) await settleCommission(trx, purchase_id);
}

/**
 * Whether the buyer paid this purchase with the referrer's own PayPal account: a payer key of the
 * purchase that one of the referrer's purchases also has, or that is the referrer's account or
 * payout email.
 */
async function paidByReferrer(trx: Tx, purchase: PurchaseRow, referrerId: string): Promise<boolean> {
  const keys = purchase.payer_keys ?? [];
  if (!keys.length) return false;
  const referrer: { email: string; paypal_email: string | null } | undefined = await trx('affiliates').where({ user_id: referrerId }).first('email', 'paypal_email');
  const referrerEmails = [referrer?.email, referrer?.paypal_email].filter((e): e is string => !!e).map(payerEmailKey);
  if (keys.some((key) => referrerEmails.includes(key))) return true;
  const shared = await trx('purchases').where({ user_id: referrerId })
    .andWhere((either) => { for (const key of keys) either.orWhereRaw('payer_keys @> ?::jsonb', [JSON.stringify([key])]); })
    .first('purchase_id');
  return !!shared;
}

/**
 * purchase.refunded: billing refunds a purchase once (in full, or in part when an admin approves
 * less), and the commission is lowered to 10% of what the buyer kept (reversed at zero). Replays set
 * the same value again.
 */
export async function recordRefund(trx: Tx, data: EventData<'purchase.refunded'>): Promise<void> {
  const refunded = toCents(data.amount);
  await lockBuyer(trx, data.user_id);
  await trx('purchases')
    .insert({ purchase_id: data.purchase_id, user_id: data.user_id, refunded_cents: refunded, refunded_at: data.refunded_at })
    .onConflict('purchase_id')
    .merge({ refunded_cents: trx.raw('greatest(purchases.refunded_cents, excluded.refunded_cents)'), refunded_at: data.refunded_at });
  await settleCommission(trx, data.purchase_id);
}

/** Commissions for the purchases a newly referred user made before the referral was seen. */
export async function settleCommissionsOf(trx: Tx, userId: string): Promise<void> {
  const purchases: { purchase_id: string }[] = await trx('purchases').where({ user_id: userId }).select('purchase_id');
  for (const { purchase_id } of purchases) await settleCommission(trx, purchase_id);
}

/**
 * Brings the purchase's commission in line with the sale and its refunds: creates it (pending for
 * the refund window), lowers it, or reverses it. One row per purchase (unique), under the
 * purchase's row lock, so concurrent or replayed events converge on the same single commission.
 */
async function settleCommission(trx: Tx, purchaseId: string): Promise<void> {
  const purchase: PurchaseRow | undefined = await trx('purchases').where({ purchase_id: purchaseId }).forUpdate().first();
  if (!purchase || purchase.amount_cents === null || !purchase.completed_at) return;
  const referral = await trx('referrals').where({ referred_user_id: purchase.user_id, status: 'attributed' }).first();
  if (!referral) return;

  const kept = Math.max(0, Number(purchase.amount_cents) - Number(purchase.refunded_cents));
  const refused = await paidByReferrer(trx, purchase, referral.referrer_id) ? 'shared_payer' as const : null;
  const entitled = refused ? 0 : commissionCents(kept);
  const existing: CommissionRow | undefined = await trx('commissions').where({ purchase_id: purchaseId }).forUpdate().first();

  if (!existing) {
    if (entitled === 0 && !refused) return;
    const earnedAt = new Date(purchase.completed_at);
    const [row] = await trx('commissions').insert({
      id: crypto.randomUUID(),
      referrer_id: referral.referrer_id,
      referred_user_id: purchase.user_id,
      purchase_id: purchaseId,
      amount_cents: entitled,
      // Refused, it is kept (reversed at zero) so the referrer sees the sale and why it earned nothing.
      status: refused ? 'reversed' : 'pending',
      refused_reason: refused,
      earned_at: earnedAt,
      hold_until: new Date(earnedAt.getTime() + COMMISSION_HOLD_DAYS * DAY_MS),
    }).returning('*');
    await announce(trx, row);
    return;
  }

  // A commission already paid out stays paid (a refund's clawback is the payout's business).
  if (refused && existing.status === 'paid') return;
  const status = nextStatus(existing, entitled);
  if (Number(existing.amount_cents) === entitled && existing.status === status && existing.refused_reason === refused) return;
  const [row] = await trx('commissions').where({ id: existing.id }).update({
    amount_cents: entitled,
    status,
    refused_reason: refused,
    reversed_at: status === 'reversed' ? trx.fn.now() : null,
    updated_at: trx.fn.now(),
  }).returning('*');
  await announce(trx, row);
}

function nextStatus(row: CommissionRow, entitled: number): CommissionStatus {
  if (entitled === 0) return 'reversed';
  if (Number(row.paid_cents) >= entitled) return 'paid';
  // Refunds only lower a commission, so one not fully paid yet keeps its pending/payable state.
  return row.status;
}

/**
 * Commissions whose refund window has closed become payable (a sweep, and before every read and
 * payout). Rows another transaction holds (a payout allocating them, a refund) are skipped, not
 * waited for: the next pass takes them, and no lock cycle with those transactions can form.
 */
export async function matureCommissions(db: Knex, now: Date, referrerId?: string): Promise<number> {
  return db.transaction(async (trx) => {
    // `now` is the service's clock (CLOCK_FILE moves it in tests), not the database's.
    const due = trx('commissions').where({ status: 'pending' }).andWhere('hold_until', '<=', now);
    if (referrerId) due.andWhere({ referrer_id: referrerId });
    const ids = (await due.orderBy('id').forUpdate().skipLocked().select('id')).map((row: { id: string }) => row.id);
    if (!ids.length) return 0;
    const rows: CommissionRow[] = await trx('commissions').whereIn('id', ids).update({ status: 'payable', updated_at: trx.fn.now() }).returning('*');
    for (const row of rows) await announce(trx, row);
    return rows.length;
  });
}
