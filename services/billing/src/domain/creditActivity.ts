import { lastUtcDays, type CreditActivityDay } from '@leadforge/contracts';
import type { Db } from '@leadforge/kit/db';

const num = (value: unknown): number => Number(value ?? 0);
const UTC_DAY = "to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')";

/**
 * One user's credits per UTC day, from their ledger entries: bought (purchases and promo claims) and
 * used. A search's hold and the give-back when it settles share its `ref`, so a search counts on the
 * day it was held, at what it finally charged, even when it settled after midnight; a search still
 * running counts at its hold.
 */
export async function creditActivity(db: Db, userId: string, dayCount: number, now = new Date()): Promise<CreditActivityDay[]> {
  const days = lastUtcDays(dayCount, now);
  const since = new Date(`${days[0]}T00:00:00Z`);
  const mine = () => db('credit_ledger').where({ user_id: userId }).andWhere('created_at', '>=', since);
  const [bought, perSearch]: [Record<string, unknown>[], Record<string, unknown>[]] = await Promise.all([
    mine().whereIn('reason', ['purchase', 'promo']).andWhere('delta', '>', 0)
      .select(db.raw(`${UTC_DAY} AS day`), db.raw('sum(delta) AS credits')).groupBy('day'),
    // A give-back whose hold came before the period belongs to a day the answer does not list.
    mine().whereIn('reason', ['generation', 'generation_refund'])
      .select(db.raw(`min(${UTC_DAY}) AS day`), db.raw('-sum(delta) AS credits')).groupBy('ref')
      .havingRaw("bool_or(reason = 'generation')"),
  ]);
  const boughtByDay = new Map(bought.map((r) => [String(r.day), num(r.credits)]));
  const usedByDay = new Map<string, number>();
  for (const r of perSearch) usedByDay.set(String(r.day), (usedByDay.get(String(r.day)) ?? 0) + num(r.credits));
  return days.map((date) => ({ date, bought: boughtByDay.get(date) ?? 0, used: usedByDay.get(date) ?? 0 }));
}
