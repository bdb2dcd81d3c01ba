import { contactScore, type ScoredPage } from './contactPages.ts';
import { hostOf, sameSite } from './siteDomain.ts';

const LOC = /<loc>\s*(?:<!\[CDATA\[)?\s*([^<\]\s]+)\s*(?:\]\]>)?\s*<\/loc>/gi;
const MAX_ENTRIES = 5000;

/**
 * The entries of a sitemap (XML, or a plain list of URLs) on the site's own domain whose path looks
 * like a contact or legal page, best first, at most `cap`. A sitemap index's child sitemaps are not
 * followed: one more request per site for a path that a link usually gives anyway is not polite.
 */
export function contactEntriesOfSitemap(siteUrl: string, text: string, cap: number): ScoredPage[] {
  const host = hostOf(siteUrl);
  if (!host || cap <= 0) return [];
  const locs = /<loc>/i.test(text) ? [...text.matchAll(LOC)].map((match) => match[1]) : text.split(/\s+/);
  const pages: ScoredPage[] = [];
  for (const loc of locs.slice(0, MAX_ENTRIES)) {
    let url: URL;
    try {
      url = new URL(loc.replace(/&amp;/g, '&'));
    } catch {
      continue;
    }
    if (!/^https?:$/.test(url.protocol) || !sameSite(url.hostname, host)) continue;
    const score = contactScore('', url.pathname);
    if (score >= 2) pages.push({ url: url.href, score });
  }
  return pages.sort((a, b) => b.score - a.score).slice(0, cap);
}
