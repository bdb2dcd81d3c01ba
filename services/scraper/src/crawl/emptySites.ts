import type { Db } from '@leadforge/kit/db';

/**
 * Websites whose last complete crawl found no contact details (scraper_empty_sites), shared by every
 * replica. Keyed by lead intake's site key (`site:<registrable domain or host><path>`): a business's
 * public website, nothing of the user or the search that crawled it.
 */

/** Whether a complete crawl found the site without contacts within the last `hours`. */
export async function foundEmptyWithin(db: Db, siteKey: string, hours: number): Promise<boolean> {
  const row = await db('scraper_empty_sites').where({ site_key: siteKey })
    .andWhere('found_empty_at', '>', db.raw("now() - (? * interval '1 hour')", [hours])).first('site_key');
  return Boolean(row);
}

/**
 * What this batch's crawls found, from any search: sites found empty are remembered (now), sites that
 * showed contacts forgotten, and findings older than `hours` (no run would use them) deleted.
 */
export async function recordSiteFindings(db: Db, foundEmpty: string[], foundContacts: string[], hours: number): Promise<void> {
  // Sorted, so searches writing the same sites at once take their rows in one order.
  if (foundEmpty.length) {
    const rows = [...new Set(foundEmpty)].sort().map((siteKey) => ({ site_key: siteKey, found_empty_at: db.fn.now() }));
    await db('scraper_empty_sites').insert(rows).onConflict('site_key').merge(['found_empty_at']);
    await db('scraper_empty_sites').where('found_empty_at', '<=', db.raw("now() - (? * interval '1 hour')", [hours])).del();
  }
  if (foundContacts.length) await db('scraper_empty_sites').whereIn('site_key', [...new Set(foundContacts)].sort()).del();
}
