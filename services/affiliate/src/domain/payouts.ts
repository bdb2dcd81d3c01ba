import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { payoutAddress } from './applications.ts';
import type { Logger } from 'pino';
import { MINIMUM_PAYOUT_USD, type PayoutBatch } from '@leadforge/contracts';
import type { PayoutsProvider } from '../paypal/payoutsProvider.ts';
import { toDollars } from './cents.ts';
import { announce, matureCommissions, type CommissionRow } from './commissions.ts';
import { senderBatchId } from './payoutSchedule.ts';

const MINIMUM_PAYOUT_CENTS = MINIMUM_PAYOUT_USD * 100;
/** A submission that has not finished in this long (a crash mid-call) may be taken over. */
const STALE_SUBMISSION = "interval '10 minutes'";

interface BatchRow {
  id: string;
  period: string;
  sender_batch_id: string;
  status: PayoutBatch['status'];
  mode: PayoutBatch['mode'];
  paypal_batch_id: string | null;
  paypal_batch_status: string | null;
  error: string | null;
  created_at: Date;
  submitted_at: Date | null;
}

/**
 * Runs the payout batch of `period`, or resumes it: one batch per month (its sender_batch_id is
 * derived from the period), so running it twice, concurrently or after a crash, pays once.
 * Referrers whose payable balance (net of clawbacks) is below $50 roll over to a later month.
 */
export async function runPayoutBatch(db: Knex, provider: PayoutsProvider, period: string, log: Logger, now: Date): Promise<PayoutBatch> {
  await matureCommissions(db, now);
  const batchId = await db.transaction(async (trx) => {
    await trx('payout_batches')
      .insert({ id: crypto.randomUUID(), period, sender_batch_id: senderBatchId(period), status: 'empty', mode: provider.mode })
      .onConflict().ignore();
    const batch: BatchRow = await trx('payout_batches').where({ period }).forUpdate().first();
    // Nothing was due when the month's batch last ran: look again.
    if (batch.status === 'empty' && (await allocate(trx, batch.id)) > 0) {
      await trx('payout_batches').where({ id: batch.id }).update({ status: 'allocated', mode: provider.mode });
    }
    return batch.id;
  });

  const claimed = await db('payout_batches')
    .where({ id: batchId })
    .andWhere((q) => {
      q.whereIn('status', ['allocated', 'failed'])
        .orWhere((stale) => { stale.where({ status: 'submitting' }).andWhereRaw(`submit_started_at < now() - ${STALE_SUBMISSION}`); });
    })
    .update({ status: 'submitting', submit_started_at: db.fn.now(), error: null })
    .returning('*');
  if (claimed.length) await submit(db, provider, claimed[0], log);
  return describeBatch(db, batchId);
}

/** Puts every referrer's due commissions into an item of the batch; returns how many items. */
async function allocate(trx: Knex.Transaction, batchId: string): Promise<number> {
  const due: CommissionRow[] = await trx('commissions')
    .whereNull('allocated_item_id')
    .andWhereRaw('amount_cents <> paid_cents')
    .andWhere('hold_until', '<=', trx.fn.now())
    .orderBy(['referrer_id', 'earned_at'])
    .forUpdate();
  const byReferrer = new Map<string, CommissionRow[]>();
  for (const row of due) byReferrer.set(row.referrer_id, [...(byReferrer.get(row.referrer_id) ?? []), row]);

  let items = 0;
  for (const [referrerId, rows] of byReferrer) {
    const net = rows.reduce((sum, row) => sum + Number(row.amount_cents) - Number(row.paid_cents), 0);
    if (net < MINIMUM_PAYOUT_CENTS) continue;
    const itemId = crypto.randomUUID();
    await trx('payout_items').insert({ id: itemId, batch_id: batchId, referrer_id: referrerId, receiver: await payoutEmail(trx, referrerId), amount_cents: net });
    await trx('payout_item_lines').insert(rows.map((row) => ({ item_id: itemId, commission_id: row.id, amount_cents: Number(row.amount_cents) - Number(row.paid_cents) })));
    await trx('commissions').whereIn('id', rows.map((row) => row.id)).update({ allocated_item_id: itemId, updated_at: trx.fn.now() });
    items++;
  }
  return items;
}

async function payoutEmail(trx: Knex.Transaction, referrerId: string): Promise<string> {
  return (await payoutAddress(trx, referrerId)).payout_email;
}

async function submit(db: Knex, provider: PayoutsProvider, batch: BatchRow, log: Logger): Promise<void> {
  const items: { id: string; receiver: string; amount_cents: number }[] = await db('payout_items').where({ batch_id: batch.id }).orderBy('id');
  let accepted;
  try {
    accepted = await provider.submitBatch(batch.sender_batch_id, items.map((item) => ({
      senderItemId: item.id,
      receiver: item.receiver,
      amountCents: Number(item.amount_cents),
      note: `Leadforge affiliate commissions (${batch.period})`,
    })));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    log.error({ err, batch: batch.sender_batch_id }, 'payout batch was not accepted; it can be retried');
    await db('payout_batches').where({ id: batch.id }).update({ status: 'failed', error: message.slice(0, 1000) });
    return;
  }

  await db.transaction(async (trx) => {
    await trx('payout_batches').where({ id: batch.id }).update({
      status: 'submitted',
      mode: provider.mode,
      paypal_batch_id: accepted.paypalBatchId,
      paypal_batch_status: accepted.batchStatus,
      submitted_at: trx.fn.now(),
      error: null,
    });
    const lines: { commission_id: string; amount_cents: number }[] = await trx('payout_item_lines as l')
      .join('payout_items as i', 'i.id', 'l.item_id')
      .where('i.batch_id', batch.id)
      .select('l.commission_id', 'l.amount_cents');
    for (const line of lines) {
      const [row] = await trx('commissions').where({ id: line.commission_id }).update({
        paid_cents: trx.raw('paid_cents + ?', [line.amount_cents]),
        allocated_item_id: null,
        // A clawback netted here is not a payment of this commission.
        paid_at: trx.raw('case when ? > 0 then now() else paid_at end', [line.amount_cents]),
        status: trx.raw("case when amount_cents = 0 then 'reversed' when paid_cents + ? >= amount_cents then 'paid' else status end", [line.amount_cents]),
        updated_at: trx.fn.now(),
      }).returning('*');
      await announce(trx, row);
    }
  });
}

export async function describeBatch(db: Knex, batchId: string): Promise<PayoutBatch> {
  const batch: BatchRow = await db('payout_batches').where({ id: batchId }).first();
  const items: { referrer_id: string; receiver: string; amount_cents: number; commissions: number }[] = await db('payout_items as i')
    .leftJoin('payout_item_lines as l', 'l.item_id', 'i.id')
    .where('i.batch_id', batchId)
    .groupBy('i.id', 'i.referrer_id', 'i.receiver', 'i.amount_cents')
    .orderBy('i.referrer_id')
    .select('i.referrer_id', 'i.receiver', 'i.amount_cents', db.raw('count(l.commission_id) as commissions'));
  return {
    id: batch.id,
    period: batch.period,
    sender_batch_id: batch.sender_batch_id,
    status: batch.status,
    mode: batch.mode,
    paypal_batch_id: batch.paypal_batch_id,
    paypal_batch_status: batch.paypal_batch_status,
    total: toDollars(items.reduce((sum, item) => sum + Number(item.amount_cents), 0)),
    items: items.map((item) => ({ referrer_id: item.referrer_id, receiver: item.receiver, amount: toDollars(Number(item.amount_cents)), commissions: Number(item.commissions) })),
    error: batch.error,
    created_at: new Date(batch.created_at).toISOString(),
    submitted_at: batch.submitted_at ? new Date(batch.submitted_at).toISOString() : null,
  };
}

export async function recentBatches(db: Knex, limit = 24): Promise<PayoutBatch[]> {
  const rows: { id: string }[] = await db('payout_batches').orderBy('period', 'desc').limit(limit).select('id');
  return Promise.all(rows.map((row) => describeBatch(db, row.id)));
}
