import type { Knex } from 'knex';
import { COMMISSION_RATE, MINIMUM_PAYOUT_USD, type Commission, type CommissionsResponse } from '@leadforge/contracts';
import { toDollars } from './cents.ts';
import type { CommissionRow } from './commissions.ts';
import { nextPayoutDate } from './payoutSchedule.ts';

export interface ReferrerTotals {
  referrals: number;
  /** Earned and not reversed, whatever its payout state. */
  commissionsCents: number;
}

export async function referrerTotals(db: Knex, referrerId: string): Promise<ReferrerTotals> {
  const [{ referrals }] = await db('referrals').where({ referrer_id: referrerId, status: 'attributed' }).count({ referrals: '*' });
  const [{ earned }] = await db('commissions').where({ referrer_id: referrerId }).sum({ earned: 'amount_cents' });
  return { referrals: Number(referrals), commissionsCents: Number(earned ?? 0) };
}

interface ListedCommission extends CommissionRow {
  plan_id: string | null;
  sale_cents: number;
}

const iso = (value: Date | string | null): string | null => (value ? new Date(value).toISOString() : null);

/** The referrer's commissions, newest first, with totals by state and what the next payout would pay. */
export async function commissionStatement(db: Knex, referrerId: string, page: number, pageSize: number, now = new Date()): Promise<CommissionsResponse> {
  const rows: ListedCommission[] = await db('commissions as c')
    .join('purchases as p', 'p.purchase_id', 'c.purchase_id')
    .where('c.referrer_id', referrerId)
    .orderBy([{ column: 'c.earned_at', order: 'desc' }, { column: 'c.id', order: 'desc' }])
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .select('c.*', 'p.plan_id', db.raw('greatest(coalesce(p.amount_cents, 0) - p.refunded_cents, 0) as sale_cents'));
  const [{ total }] = await db('commissions').where({ referrer_id: referrerId }).count({ total: '*' });

  const byStatus: { status: string; outstanding: number; paid: number }[] = await db('commissions')
    .where({ referrer_id: referrerId })
    .groupBy('status')
    .select('status', db.raw('sum(amount_cents - paid_cents) as outstanding'), db.raw('sum(paid_cents) as paid'));
  const outstanding = (status: string) => Number(byStatus.find((s) => s.status === status)?.outstanding ?? 0);
  const paid = byStatus.reduce((sum, s) => sum + Number(s.paid), 0);

  const payoutDate = nextPayoutDate(now);
  const [{ eligible }] = await db('commissions')
    .where({ referrer_id: referrerId })
    .whereNull('allocated_item_id')
    .andWhere('hold_until', '<=', payoutDate)
    .select(db.raw('coalesce(sum(amount_cents - paid_cents), 0) as eligible'));
  const eligibleCents = Number(eligible);

  return {
    commissions: rows.map((row): Commission => ({
      id: row.id,
      purchase_id: row.purchase_id,
      plan_id: row.plan_id ?? 'unknown',
      sale_amount: toDollars(Number(row.sale_cents)),
      amount: toDollars(Number(row.amount_cents)),
      status: row.status,
      earned_at: iso(row.earned_at)!,
      payable_at: iso(row.hold_until)!,
      paid_at: iso(row.paid_at),
      ...(row.refused_reason ? { refused_reason: row.refused_reason } : {}),
    })),
    page,
    page_size: pageSize,
    total: Number(total),
    totals: { pending: toDollars(outstanding('pending')), payable: toDollars(outstanding('payable')), paid: toDollars(paid) },
    next_payout: {
      date: payoutDate.toISOString().slice(0, 10),
      eligible_amount: toDollars(Math.max(0, eligibleCents)),
      minimum: MINIMUM_PAYOUT_USD,
      threshold_reached: eligibleCents >= MINIMUM_PAYOUT_USD * 100,
    },
    commission_rate: COMMISSION_RATE,
  };
}
