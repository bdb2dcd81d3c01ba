import type { PlacesSourceUsage, UsageStatsResponse } from '@leadforge/contracts';
import type { Knex } from 'knex';
import type { Db } from '@leadforge/kit/db';

const TOP_DOMAINS = 10;
const round2 = (value: number): number => Math.round(value * 100) / 100;

/** The domains with the most requests since the last reset, most first. */
export async function readTopDomains(db: Db): Promise<{ domain: string; requests: number }[]> {
  const rows: { domain: string; requests: string | number }[] = await db('scraper_usage_domains')
    .select('domain', 'requests').orderBy([{ column: 'requests', order: 'desc' }, { column: 'domain' }]).limit(TOP_DOMAINS);
  return rows.map(({ domain, requests }) => ({ domain, requests: Number(requests) }));
}

/** Each provider's use by searches over the last `days` UTC days (today included), or since the last reset; most requests first. */
export async function readPlacesUsage(db: Db, days?: number): Promise<PlacesSourceUsage[]> {
  type Row = { source: PlacesSourceUsage['source']; requests: string | number; places: string | number; errors: string | number };
  // Knex types a `sum` as only its sums; the rows also carry the grouped `source`.
  const query: Knex.QueryBuilder<Row, Row[]> = db('scraper_places_usage').select('source')
    .sum({ requests: 'requests', places: 'places', errors: 'errors' })
    .groupBy('source');
  if (days) {
    const from = new Date(Date.now() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
    query.where('day', '>=', from);
  }
  const rows: Row[] = await query;
  return rows
    .map(({ source, requests, places, errors }) => ({ source, requests: Number(requests), places: Number(places), errors: Number(errors) }))
    .sort((a, b) => b.requests - a.requests || a.source.localeCompare(b.source));
}

/** The usage totals as the Proxy Stats tab shows them; the places sources' figures of the last `days` days, or since the last reset. */
export async function readUsageStats(db: Db, remainingRequests: number, days?: number): Promise<UsageStatsResponse> {
  const totals = await db('scraper_usage_totals').where({ id: 1 }).first();
  const domains = await readTopDomains(db);
  const placesSources = await readPlacesUsage(db, days);
  const successful = Number(totals?.successful ?? 0);
  const failed = Number(totals?.failed ?? 0);
  const total = successful + failed;
  const bytes = Number(totals?.bytes ?? 0);
  return {
    total_successful: successful,
    total_failed: failed,
    success_rate: total ? round2((successful / total) * 100) : 0,
    quota: { remaining_requests: remainingRequests },
    avg_response_time_ms: total ? round2(Number(totals.response_ms) / total) : 0,
    total_requests: total,
    total_traffic_mb: round2(bytes / (1024 * 1024)),
    total_traffic_kb: round2(bytes / 1024),
    top_domains: domains.map(({ domain, requests }) => ({ domain, count: requests })),
    pages_given_up: Number(totals?.pages_given_up ?? 0),
    last_updated: totals?.last_request_at ? new Date(totals.last_request_at).toISOString() : null,
    places_sources: placesSources,
  };
}

/** Clears every usage figure (the admin's reset); the caller restores the quota. */
export async function clearUsage(db: Db): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('scraper_usage_domains').delete();
    await trx('scraper_places_usage').delete();
    await trx('scraper_usage_totals').where({ id: 1 })
      .update({ successful: 0, failed: 0, response_ms: 0, bytes: 0, pages_given_up: 0, last_request_at: null, reset_at: trx.fn.now() });
  });
}
