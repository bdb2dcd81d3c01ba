import { lastUtcDays, type AdminPurchase, type AdminStats, type DailyFigures } from '@leadforge/contracts';
import type { Db } from '@leadforge/kit/db';
import { newestUsers, userTotals } from './userDirectory.ts';
import { iso, num } from './sqlValues.ts';

export const RECENT_ITEMS = 5;
export const CHART_DAYS = 30;

/**
 * The overview's figures. Totals come from running totals and per-day roll-ups (a few hundred rows),
 * never from scanning users or the activity feed, so they cost the same with millions of rows.
 */
export async function overviewStats(db: Db, now = new Date()): Promise<AdminStats> {
  // Independent reads: in parallel on Postgres (a pool), one after another on PGlite (one connection).
  const [users, totals, recentUsers, recentPurchases, daily] = await Promise.all([
    userTotals(db),
    db('rm_daily').first(
      db.raw('coalesce(sum(purchases), 0) AS purchases'),
      db.raw('coalesce(sum(revenue), 0) AS revenue'),
      db.raw('coalesce(sum(refunded), 0) AS refunded'),
      db.raw('coalesce(sum(test_purchases), 0) AS test_purchases'),
      db.raw('coalesce(sum(test_amount), 0) AS test_amount'),
      db.raw('coalesce(sum(test_refunded), 0) AS test_refunded'),
      db.raw('coalesce(sum(leads), 0) AS leads'),
      db.raw('coalesce(sum(scrapes), 0) AS scrapes'),
    ),
    newestUsers(db, RECENT_ITEMS),
    db('rm_purchases as p')
      .leftJoin('rm_users as u', 'u.user_id', 'p.user_id')
      .select('p.purchase_id', 'p.user_id', 'u.name as user_name', 'p.plan_id', 'p.amount', 'p.credits', 'p.completed_at', 'p.refunded_amount', 'p.test')
      .orderBy([{ column: 'p.completed_at', order: 'desc' }, { column: 'p.purchase_id', order: 'desc' }])
      .limit(RECENT_ITEMS),
    dailyFigures(db, now),
  ]);

  return {
    users: { total: users.listed, admins: users.admins, inactive: users.inactive },
    revenue: { total: cents(num(totals.revenue) - num(totals.refunded)), purchases: num(totals.purchases), refunded: cents(num(totals.refunded)) },
    test_checkout: { total: cents(num(totals.test_amount) - num(totals.test_refunded)), purchases: num(totals.test_purchases) },
    usage: { total_leads_generated: num(totals.leads), total_scrapes: num(totals.scrapes) },
    credits: { total_in_system: num(users.credits) },
    recent_users: recentUsers,
    recent_purchases: recentPurchases.map((p): AdminPurchase => ({
      id: p.purchase_id,
      user_id: p.user_id,
      user_name: p.user_name ?? null,
      plan_id: p.plan_id,
      amount: num(p.amount),
      credits: num(p.credits),
      completed_at: iso(p.completed_at),
      refunded_amount: num(p.refunded_amount),
      test: p.test === true,
    })),
    daily,
  };
}

const cents = (dollars: number) => Math.round(dollars * 100) / 100;

/** The last CHART_DAYS UTC days, oldest first, with days without activity as zeros. */
async function dailyFigures(db: Db, now: Date): Promise<DailyFigures[]> {
  const days = lastUtcDays(CHART_DAYS, now);
  const rows: { day: string; signups: unknown; revenue: unknown; refunded: unknown; leads: unknown; scrapes: unknown; credits_used: unknown }[] = await db('rm_daily')
    .select(db.raw('day::text AS day'), 'signups', 'revenue', 'refunded', 'leads', 'scrapes', 'credits_used')
    .where('day', '>=', days[0])
    .andWhere('day', '<=', days[days.length - 1]);
  const byDay = new Map(rows.map((r) => [r.day, r]));
  return days.map((date) => {
    const r = byDay.get(date);
    return {
      date, signups: num(r?.signups), revenue: cents(num(r?.revenue) - num(r?.refunded)), leads: num(r?.leads),
      searches: num(r?.scrapes), credits_used: num(r?.credits_used),
    };
  });
}
