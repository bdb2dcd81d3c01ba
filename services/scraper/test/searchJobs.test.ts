import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresConfigured, waitFor, type TestDatabaseKind } from '@leadforge/testing';
import { businessKeysOfLead } from '@leadforge/contracts/businessKeys.ts';
import { createNominatimGeocoder } from '../src/places/nominatimGeocoder.ts';
import { geocodeStoreOf } from '../src/places/geocodeStore.ts';
import { startFixtureWeb, type FixtureWeb } from './fixtureWeb/fixtureWeb.ts';
import { FIXTURE_AMBIGUOUS, FIXTURE_TOWN } from './fixtureWeb/providerAnswers.ts';
import { startScraperUnderTest, type ScraperUnderTest } from './support/scraperUnderTest.ts';

const kinds: TestDatabaseKind[] = ['pglite', 'postgres'];

const leadsOf = (scraper: ScraperUnderTest, searchId: string) =>
  scraper.results.filter((event) => event.type === 'scrape.leads_found' && event.key === searchId).flatMap((event) => event.data.leads);

for (const kind of kinds) {
  describe.skipIf(kind === 'postgres' && !postgresConfigured)(`search jobs on ${kind}${kind === 'postgres' && !postgresConfigured ? ' (skipped: no PostgreSQL; apt-get install -y postgresql)' : ''}`, () => {
    let web: FixtureWeb;
    let scraper: ScraperUnderTest;

    beforeAll(async () => {
      web = await startFixtureWeb({ sites: 60, includeFaultPlaces: true });
      scraper = await startScraperUnderTest({ kind, web });
    });
    afterAll(async () => {
      await scraper?.stop();
      await web?.close();
    });

    it('finds places, crawls their sites and streams leads with contacts until the quantity', async () => {
      await scraper.requestSearch({ search_id: 'search-1', quantity: 20 });
      const finished = await scraper.finished('search-1');
      const leads = leadsOf(scraper, 'search-1');

      expect(finished.data.reason).toBe('done');
      expect(leads).toHaveLength(20);
      expect(new Set(leads.map((lead) => lead.key)).size).toBe(20);
      for (const lead of leads) {
        expect(lead.email || lead.phone).toBeTruthy();
        expect(lead).toMatchObject({ source: 'osm', city: 'London', country: 'GB' });
        expect(lead.key).toBe(`osm:${lead.place_id}`);
      }
      // What the crawler found matches what each generated site shows.
      for (const lead of leads) {
        const site = web.sites.find((candidate) => lead.website === `http://${candidate.host}/`);
        if (!site) continue;
        expect(lead.emails).toEqual(expect.arrayContaining(site.truth.emails));
        // The person the site names behind the business, or empty: never a copy of the company.
        expect(lead.name).toBe(site.truth.person ?? '');
        expect(lead.phones).toEqual(expect.arrayContaining(site.truth.phones));
      }
      const stats = finished.data.stats;
      expect(stats).toEqual({
        total_found: 20,
        with_email: leads.filter((lead) => lead.email).length,
        with_phone: leads.filter((lead) => lead.phone).length,
        with_website: leads.filter((lead) => lead.website).length,
      });
      // Leads arrive in small batches, with progress in between.
      const batches = scraper.results.filter((event) => event.type === 'scrape.leads_found' && event.key === 'search-1');
      expect(batches.length).toBeGreaterThan(1);
      expect(Math.max(...batches.map((event) => event.data.leads.length))).toBeLessThanOrEqual(20);
      const progress = scraper.results.filter((event) => event.type === 'scrape.progress' && event.key === 'search-1');
      expect(progress.at(-1)!.data.leads_found).toBe(20);
      expect(scraper.results.filter((event) => event.type === 'scrape.finished' && event.key === 'search-1')).toHaveLength(1);
    });

    it('goes through every place when the quantity cannot be met, and finishes as done', async () => {
      await scraper.requestSearch({ search_id: 'search-all', quantity: 200 });
      const finished = await scraper.finished('search-all', 60_000);
      const leads = leadsOf(scraper, 'search-all');
      // Sites of styles 7 (no contacts) have no lead; fault sites mostly none either.
      const withContacts = web.sites.filter((site) => site.truth.emails.length || site.truth.phones.length || site.placeTags.phone);
      expect(finished.data.reason).toBe('done');
      expect(leads.length).toBeGreaterThanOrEqual(withContacts.length);
      expect(leads.length).toBeLessThan(web.places.length);
      expect(new Set(leads.map((lead) => lead.key)).size).toBe(leads.length);
      expect(new Set(leads.map((lead) => lead.email || lead.phone)).size).toBe(leads.length);
      expect(leads.find((lead) => lead.website.includes('norobots'))).toBeUndefined();
      expect(leads.find((lead) => lead.website.includes('ratelimited'))?.email).toBe('patient@ratelimited.fixture.test');
    }, 90_000);

    it('neither crawls nor counts a business the user already has (known keys), and still delivers new ones', async () => {
      await scraper.requestSearch({ search_id: 'search-known-first', quantity: 10 });
      await scraper.finished('search-known-first');
      const known = leadsOf(scraper, 'search-known-first');
      expect(known).toHaveLength(10);
      // The keys lead intake stores for them (owned_businesses), as the leads service sends them.
      const knownKeys = known.flatMap(businessKeysOfLead);
      const knownHosts = known.filter((lead) => lead.website).map((lead) => new URL(lead.website).host);
      expect(knownHosts.length).toBeGreaterThan(0);
      const hitsOfKnownSites = () => [...web.hits].filter(([key]) => knownHosts.includes(key.split(' ')[0])).reduce((sum, [, count]) => sum + count, 0);
      const before = hitsOfKnownSites();

      await scraper.requestSearch({ search_id: 'search-known-again', quantity: 10, known_business_keys: knownKeys });
      const finished = await scraper.finished('search-known-again');
      const fresh = leadsOf(scraper, 'search-known-again');

      expect(finished.data.reason).toBe('done');
      expect(hitsOfKnownSites()).toBe(before);
      expect(fresh).toHaveLength(10);
      expect(fresh.filter((lead) => known.some((old) => old.key === lead.key))).toEqual([]);
      expect(finished.data.stats.total_found).toBe(10);
      expect(finished.data.stats.known_skipped).toBeGreaterThanOrEqual(10);
    });

    it('reuses a geocoded location from the database: another replica makes no Nominatim request within SCRAPER_GEOCODE_CACHE_HOURS', async () => {
      await scraper.requestSearch({ search_id: 'search-geocode', location: 'Geocode Town', quantity: 1 });
      await scraper.finished('search-geocode');
      // Another replica (or this one after a restart): its own geocoder over the same database.
      const asked: string[] = [];
      const fetchJson = async (url: string) => {
        asked.push(url);
        return (await fetch(url)).json();
      };
      const replica = createNominatimGeocoder(fetchJson, web.urls.nominatim, { hours: 24, store: geocodeStoreOf(scraper.svc.ctx.db) });
      const area = await replica(' geocode town ');
      expect(asked).toEqual([]);
      expect(area.name).toBeTruthy();
      // An answer older than the cache's hours is asked for again (and stored anew).
      await scraper.svc.ctx.db('scraper_geocodes').where({ location_key: 'geocode town' }).update({ geocoded_at: new Date(Date.now() - 25 * 3600_000) });
      await createNominatimGeocoder(fetchJson, web.urls.nominatim, { hours: 24, store: geocodeStoreOf(scraper.svc.ctx.db) })('Geocode Town');
      expect(asked).toHaveLength(1);
    });

    it('stops a cancelled search with the reason and what it had found', async () => {
      await scraper.requestSearch({ search_id: 'search-cancel', quantity: 200 });
      // Cancelled once it has found something, so the stats it finishes with are a run's.
      await waitFor(() => scraper.results.some((event) => event.type === 'scrape.leads_found' && event.key === 'search-cancel'), { timeoutMs: 30_000, what: 'the first leads of the search' });
      await scraper.cancelSearch('search-cancel');
      const finished = await scraper.finished('search-cancel');
      expect(finished.data.reason).toBe('cancelled');
      expect(finished.data.stats.total_found).toBe(leadsOf(scraper, 'search-cancel').length);
    });

    it('stops at the deadline', async () => {
      await scraper.requestSearch({ search_id: 'search-deadline', quantity: 200, deadlineInMs: 300 });
      const finished = await scraper.finished('search-deadline');
      expect(finished.data.reason).toBe('deadline');
      expect(finished.data.stats.total_found).toBe(leadsOf(scraper, 'search-deadline').length);
    });

    it('ignores a redelivered request for a search it already has', async () => {
      const again = await scraper.requestSearch({ search_id: 'search-1', quantity: 20 });
      // Handled (its id among the consumer's handled events): whatever it would start has been recorded by then.
      await waitFor(() => scraper.svc.ctx.db('kit_handled_events').where({ event_id: again.id }).first(), { what: 'the redelivered request handled' });
      expect(await scraper.svc.ctx.db('scraper_jobs').where({ search_id: 'search-1' }).pluck('state')).toEqual(['finished']);
      expect(scraper.results.filter((event) => event.type === 'scrape.finished' && event.key === 'search-1')).toHaveLength(1);
    });
  });
}

describe('the places source chosen by PLACES_SOURCE', () => {
  let web: FixtureWeb;
  const scrapers: ScraperUnderTest[] = [];

  beforeAll(async () => {
    web = await startFixtureWeb({ sites: 30 });
  });
  afterAll(async () => {
    await Promise.all(scrapers.map((scraper) => scraper.stop()));
    await web?.close();
  });

  const searchWith = async (env: NodeJS.ProcessEnv, quantity = 8) => {
    const scraper = await startScraperUnderTest({ kind: 'pglite', web, env });
    scrapers.push(scraper);
    await scraper.requestSearch({ search_id: 'source-search', quantity });
    const finished = await scraper.finished('source-search');
    return { finished: finished.data, leads: leadsOf(scraper, 'source-search') };
  };

  it('finds places through Google Places (New) with its key', async () => {
    const { finished, leads } = await searchWith({ PLACES_SOURCE: 'google', GOOGLE_PLACES_API_KEY: 'test-key' });
    expect(finished.reason).toBe('done');
    expect(leads).toHaveLength(8);
    expect(leads.every((lead) => lead.source === 'google' && lead.key.startsWith('google:ChIJfixture'))).toBe(true);
  });

  it('finds places through the Decodo Web Scraping API with its token', async () => {
    const { finished, leads } = await searchWith({ PLACES_SOURCE: 'decodo', DECODO_SCRAPER_TOKEN: 'dXNlcjpwYXNz' });
    expect(finished.reason).toBe('done');
    expect(leads).toHaveLength(8);
    expect(leads.every((lead) => lead.source === 'decodo')).toBe(true);
  });

  it('finishes as source_failed, naming what is missing, when the source has no credentials', async () => {
    const { finished, leads } = await searchWith({ PLACES_SOURCE: 'google', GOOGLE_PLACES_API_KEY: '' });
    expect(finished).toMatchObject({ reason: 'source_failed', error: 'the google source needs GOOGLE_PLACES_API_KEY', failure: { code: 'no_source_configured' }, stats: { total_found: 0 } });
    expect(leads).toEqual([]);
  });

  it('finishes as source_failed with the provider\'s answer when the source fails', async () => {
    const { finished } = await searchWith({ OVERPASS_URL: `${web.origin}/no-overpass-here` });
    expect(finished.reason).toBe('source_failed');
    expect(finished.error).toContain('HTTP 404');
    expect(finished.failure).toEqual({ code: 'provider_error' });
  });

  it('finishes as source_failed with the code a program can act on: a place that does not exist, an ambiguous name, a directory away', async () => {
    const scraper = await startScraperUnderTest({ kind: 'pglite', web });
    scrapers.push(scraper);
    const failureOf = async (searchId: string, location: string) => {
      await scraper.requestSearch({ search_id: searchId, location, quantity: 5 });
      return (await scraper.finished(searchId)).data;
    };
    const nowhere = await failureOf('nowhere', 'Atlantis');
    expect(nowhere).toMatchObject({ reason: 'source_failed', failure: { code: 'location_not_found' } });
    expect(nowhere.failure.candidates).toBeUndefined();
    expect((await failureOf('guessed', 'Lindenfeld, Atlantis')).failure).toEqual({ code: 'location_not_found', candidates: [FIXTURE_TOWN.displayName] });
    expect((await failureOf('several', FIXTURE_AMBIGUOUS.name)).failure).toEqual({ code: 'location_ambiguous', candidates: FIXTURE_AMBIGUOUS.places });
    // A place picked from the list is searched, whatever else shares its name.
    expect((await failureOf('picked', FIXTURE_AMBIGUOUS.places[1])).reason).toBe('done');
    const away = await searchWith({ NOMINATIM_URL: 'http://127.0.0.1:9/nominatim' });
    expect(away.finished.failure).toEqual({ code: 'provider_unreachable' });
  });
});
