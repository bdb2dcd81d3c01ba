import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundError } from '@leadforge/kit/outbound';
import { postgresConfigured, type TestDatabaseKind } from '@leadforge/testing';
import { createSiteEnricher } from '../src/crawl/siteEnrichment.ts';
import type { FetchedPage } from '../src/outbound/outboundClient.ts';
import { FAULT_HOSTS, startFixtureWeb, type FixtureWeb } from './fixtureWeb/fixtureWeb.ts';
import { startScraperUnderTest, type ScraperUnderTest } from './support/scraperUnderTest.ts';
import { testPageReader } from './support/testPageReader.ts';

const kinds: TestDatabaseKind[] = ['pglite', 'postgres'];

describe('a crawl that found nothing, as the enricher reports it', () => {
  const parsing = testPageReader();
  afterAll(() => parsing.release());
  const home = '<html><body><h1>Quiet Dental</h1><p><a href="/contact">Contact us</a></p></body></html>';
  const enricherWith = (contactPage: () => Promise<FetchedPage>) => createSiteEnricher({
    client: { fetchPage: async (url) => (new URL(url).pathname === '/' ? { url, status: 200, html: home } : contactPage()) },
    reader: parsing.reader,
    contactPages: 3,
  });

  it('is found empty when every page answered and none shows a contact (a missing page is an answer)', async () => {
    const enrich = enricherWith(async () => { throw new OutboundError('http_status', 'answered HTTP 404', 'http://quiet.example/contact', 404); });
    expect((await enrich('http://quiet.example/', 'GB', AbortSignal.timeout(10_000))).foundNothing).toBe(true);
  });

  it('is not found empty when a page could not be read: a timeout, a 5xx, a robots.txt refusal', async () => {
    for (const failure of [
      new OutboundError('timeout', 'timed out', 'http://quiet.example/contact'),
      new OutboundError('http_status', 'answered HTTP 503', 'http://quiet.example/contact', 503),
      new OutboundError('robots_disallowed', 'robots.txt disallows /contact', 'http://quiet.example/contact'),
    ]) {
      const found = await enricherWith(async () => { throw failure; })('http://quiet.example/', 'GB', AbortSignal.timeout(10_000));
      expect({ failure: failure.message, reached: found.reached, foundNothing: found.foundNothing }).toEqual({ failure: failure.message, reached: true, foundNothing: undefined });
    }
  });
});

for (const kind of kinds) {
  describe.skipIf(kind === 'postgres' && !postgresConfigured)(`sites found empty, remembered for monitors' runs, on ${kind}${kind === 'postgres' && !postgresConfigured ? ' (skipped: no PostgreSQL)' : ''}`, () => {
    let web: FixtureWeb;
    let scraper: ScraperUnderTest;
    /** Sites whose pages show no contact (a phone some carry is their map listing's own tag). */
    let emptyHosts: string[];
    const hitsOf = (hosts: string[]) => [...web.hits].filter(([key]) => hosts.includes(key.split(' ')[0])).reduce((sum, [, count]) => sum + count, 0);
    const rememberedSites = async () => (await scraper.svc.ctx.db('scraper_empty_sites').orderBy('site_key').pluck('site_key')) as string[];
    const search = async (searchId: string, monitorId?: string) => {
      await scraper.requestSearch({ search_id: searchId, quantity: 200, ...(monitorId ? { monitor_id: monitorId } : {}) });
      return scraper.finished(searchId, 60_000);
    };
    const leadsOf = (searchId: string) =>
      scraper.results.filter((event) => event.type === 'scrape.leads_found' && event.key === searchId).flatMap((event) => event.data.leads);

    beforeAll(async () => {
      web = await startFixtureWeb({ sites: 30, includeFaultPlaces: true });
      // No retries: the flaky (500) and rate-limited (429) sites fail their crawl, as they may for real.
      scraper = await startScraperUnderTest({ kind, web, env: { SCRAPER_MAX_RETRIES: '0' } });
      emptyHosts = web.sites.filter((site) => !site.truth.emails.length && (!site.truth.phones.length || site.placeTags.phone)).map((site) => site.host);
    });
    afterAll(async () => {
      await scraper?.stop();
      await web?.close();
    });

    it('remembers a site whose complete crawl found no contacts, never one whose crawl failed', async () => {
      expect(emptyHosts.length).toBeGreaterThanOrEqual(2);
      expect((await search('search-first')).data.reason).toBe('done');
      // The redirect to loopback is followed here (private networks allowed) to a page without contacts: found empty too.
      expect(await rememberedSites()).toEqual([...emptyHosts, FAULT_HOSTS.redirectLoopback].map((host) => `site:${host}`).sort());
      // Unreachable, timed out, 5xx, 429, robots.txt refusing, redirected to a refused address, too big, binary: none is "found empty".
      const failed = Object.values(FAULT_HOSTS).filter((host) => host !== FAULT_HOSTS.redirectLoopback && host !== FAULT_HOSTS.crawlDelay);
      for (const host of failed) expect(await rememberedSites()).not.toContain(`site:${host}`);
    }, 90_000);

    it('a monitor\'s run skips a site found empty within the window; the place still counts; a failed site is crawled again', async () => {
      const first = scraper.results.find((event) => event.type === 'scrape.finished' && event.key === 'search-first')!;
      const emptyBefore = hitsOf(emptyHosts);
      const failedBefore = hitsOf([FAULT_HOSTS.down, FAULT_HOSTS.flaky, FAULT_HOSTS.robotsDisallow]);

      const run = await search('monitor-run-1', 'monitor-1');

      expect(run.data.reason).toBe('done');
      expect(hitsOf(emptyHosts)).toBe(emptyBefore);
      expect(hitsOf([FAULT_HOSTS.down, FAULT_HOSTS.flaky, FAULT_HOSTS.robotsDisallow])).toBeGreaterThan(failedBefore);
      expect(run.data.coverage.places_found).toBe(first.data.coverage.places_found);
      const places = await scraper.svc.ctx.db('scraper_job_places').where({ search_id: 'monitor-run-1' }).count<{ count: string | number }[]>('* as count');
      expect(Number(places[0].count)).toBe(web.places.length);
      // A skipped site's place still gives its listing's own contact (the phone tag).
      const tagged = web.sites.find((site) => emptyHosts.includes(site.host) && site.placeTags.phone)!;
      expect(leadsOf('monitor-run-1').some((lead) => lead.website === `http://${tagged.host}/` && lead.phone)).toBe(true);
    }, 90_000);

    it('a search (not a monitor\'s run) crawls a site found empty again', async () => {
      const before = hitsOf(emptyHosts);
      expect((await search('search-again')).data.reason).toBe('done');
      for (const host of emptyHosts) expect(hitsOf([host]), host).toBeGreaterThan(0);
      expect(hitsOf(emptyHosts)).toBeGreaterThanOrEqual(before + emptyHosts.length);
    }, 90_000);

    it('a monitor\'s run crawls a site found empty longer ago than SCRAPER_EMPTY_SITE_CACHE_HOURS (168), remembers it anew, and deletes findings no run would use', async () => {
      await scraper.svc.ctx.db('scraper_empty_sites').update({ found_empty_at: new Date(Date.now() - 169 * 3600_000) });
      // A site no search finds any more: its stale finding goes as the next findings are recorded.
      await scraper.svc.ctx.db('scraper_empty_sites').insert({ site_key: 'site:closed-down.example', found_empty_at: new Date(Date.now() - 169 * 3600_000) });
      const before = hitsOf(emptyHosts);
      expect((await search('monitor-run-2', 'monitor-1')).data.reason).toBe('done');
      expect(hitsOf(emptyHosts)).toBeGreaterThanOrEqual(before + emptyHosts.length);
      const stale = await scraper.svc.ctx.db('scraper_empty_sites').where('found_empty_at', '<', new Date(Date.now() - 168 * 3600_000)).count<{ count: string | number }[]>('* as count');
      expect(Number(stale[0].count)).toBe(0);
      expect(await rememberedSites()).not.toContain('site:closed-down.example');
    }, 90_000);
  });
}
