import { PUBLIC_STATS_DAYS, type PublicLeadStats } from '@leadforge/contracts';
import type { Db } from '@leadforge/kit/db';

/** The figures are read at most this often: the route is public, and they move slowly. */
const FRESH_MS = 60_000;

const num = (value: unknown): number => Number(value ?? 0);

/**
 * What the last PUBLIC_STATS_DAYS days of real searches measured: how many completed with leads,
 * how long they took to their results (the median), and what the mail check said of their emails.
 * The home page claims these figures or says nothing; nothing here is a promise made up in advance.
 */
export async function measurePublicStats(db: Db, now: Date): Promise<PublicLeadStats> {
  const since = new Date(now.getTime() - PUBLIC_STATS_DAYS * 86_400_000);
  const [searches, emails] = await Promise.all([
    db('lead_searches').where('status', 'completed').andWhere('leads_count', '>', 0).andWhere('created_at', '>=', since).first(
      db.raw('count(*) AS searches'),
      db.raw('coalesce(sum(leads_count), 0) AS leads'),
      db.raw('percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM finished_at - created_at)) AS median_seconds'),
    ),
    db('leads as l').join('lead_searches as s', 's.id', 'l.search_id')
      .where('s.created_at', '>=', since).andWhereNot('l.email', '')
      .first(
        db.raw("count(*) FILTER (WHERE l.email_deliverability IN ('deliverable', 'undeliverable', 'accept_all')) AS checked"),
        db.raw("count(*) FILTER (WHERE l.email_deliverability = 'deliverable') AS deliverable"),
      ),
  ]);
  const checked = num(emails?.checked);
  const median = searches?.median_seconds;
  return {
    period_days: PUBLIC_STATS_DAYS,
    searches_completed: num(searches?.searches),
    leads_delivered: num(searches?.leads),
    median_seconds_to_results: median === null || median === undefined ? null : Math.round(num(median)),
    emails_checked: checked,
    emails_deliverable_percent: checked ? Math.round((num(emails?.deliverable) / checked) * 1000) / 10 : null,
    generated_at: now.toISOString(),
  };
}

/** The public figures, measured again once they are a minute old (one measurement at a time). */
export function publicStats(db: Db): () => Promise<PublicLeadStats> {
  let last: { at: number; figures: Promise<PublicLeadStats> } | undefined;
  return () => {
    const now = Date.now();
    if (!last || now - last.at >= FRESH_MS) {
      const figures = measurePublicStats(db, new Date(now));
      last = { at: now, figures };
      // A failed measurement is not kept: the next request measures again.
      figures.catch(() => { if (last?.figures === figures) last = undefined; });
    }
    return last.figures;
  };
}
