import { lastUtcDays, type LeadActivityDay } from '@leadforge/contracts';
import type { Db } from '@leadforge/kit/db';

const num = (value: unknown): number => Number(value ?? 0);
const UTC_DAY = "to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')";

/**
 * One user's searches per UTC day (the day each started), the leads they delivered and how many of
 * those carried an email, a phone, a deliverable email. Sums over the user's own searches of the
 * period only (the history index), never over anyone else's.
 */
export async function leadActivity(db: Db, userId: string, dayCount: number, now = new Date()): Promise<LeadActivityDay[]> {
  const days = lastUtcDays(dayCount, now);
  const since = new Date(`${days[0]}T00:00:00Z`);
  const mine = () => db('lead_searches').where({ user_id: userId }).whereNot({ status: 'reserving' }).andWhere('created_at', '>=', since);
  const [searches, verified]: [Record<string, unknown>[], Record<string, unknown>[]] = await Promise.all([
    mine().select(
      db.raw(`${UTC_DAY} AS day`),
      db.raw('count(*) AS searches'),
      db.raw('coalesce(sum(leads_count), 0) AS leads'),
      db.raw('coalesce(sum(with_email), 0) AS with_email'),
      db.raw('coalesce(sum(with_phone), 0) AS with_phone'),
    ).groupBy('day'),
    db('leads as l').join(mine().select('id', db.raw(`${UTC_DAY} AS day`)).as('s'), 's.id', 'l.search_id')
      .where('l.email_deliverability', 'deliverable').andWhereNot('l.email', '')
      .select('s.day', db.raw('count(*) AS verified')).groupBy('s.day'),
  ]);
  const searchesByDay = new Map(searches.map((r) => [String(r.day), r]));
  const verifiedByDay = new Map(verified.map((r) => [String(r.day), num(r.verified)]));
  return days.map((date) => {
    const r = searchesByDay.get(date);
    return {
      date,
      searches: num(r?.searches),
      leads: num(r?.leads),
      with_email: num(r?.with_email),
      with_phone: num(r?.with_phone),
      verified_email: verifiedByDay.get(date) ?? 0,
    };
  });
}
