import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureWeb, type FixtureWeb } from './fixtureWeb/fixtureWeb.ts';
import { startScraperUnderTest, type ScraperUnderTest } from './support/scraperUnderTest.ts';

describe('provider usage per places source', () => {
  let web: FixtureWeb;
  let scraper: ScraperUnderTest;
  let admin: string;

  beforeAll(async () => {
    web = await startFixtureWeb({ sites: 12 });
    // Two sources that answer and one without its token, which fails every search it is in.
    scraper = await startScraperUnderTest({
      kind: 'pglite', web, env: { PLACES_SOURCES: 'osm,google,decodo', GOOGLE_PLACES_API_KEY: 'test-key', DECODO_SCRAPER_TOKEN: '' },
    });
    admin = scraper.identities.tokenFor('admin-1', 'admin');
  });
  afterAll(async () => {
    await scraper?.stop();
    await web?.close();
  });

  const usageStats = (query = '') => scraper.call('GET', `/api/admin/decodo-usage${query}`, undefined, admin);

  it('counts a search\'s provider requests, places and failures per source and shows them in the admin usage statistics', async () => {
    expect((await usageStats()).body.places_sources).toEqual([]);
    // More than the area holds: the search reads every source to its end, so its coverage is final.
    await scraper.requestSearch({ search_id: 'usage-search', quantity: 500 });
    const finished = (await scraper.finished('usage-search', 60_000)).data;
    const { sources, provider_requests: providerRequests } = finished.coverage;
    expect(sources.osm.requests).toBeGreaterThan(0);
    expect(sources.google.requests).toBeGreaterThan(0);
    expect(sources.decodo).toMatchObject({ requests: 0, error: 'the decodo source needs DECODO_SCRAPER_TOKEN' });

    const answer = await usageStats();
    expect(answer.status).toBe(200);
    expect(answer.body.places_sources).toEqual(expect.arrayContaining([
      { source: 'osm', requests: sources.osm.requests, places: sources.osm.places, errors: 0 },
      { source: 'google', requests: sources.google.requests, places: sources.google.places, errors: 0 },
      // Geocoding the area: the search's provider requests that no source sent.
      { source: 'nominatim', requests: providerRequests - sources.osm.requests - sources.google.requests, places: 0, errors: 0 },
      { source: 'decodo', requests: 0, places: 0, errors: 1 },
    ]));
    expect(answer.body.places_sources).toHaveLength(4);
    const requests = answer.body.places_sources.map((row: { requests: number }) => row.requests);
    expect(requests).toEqual([...requests].sort((a, b) => b - a));

    // Stored per UTC day and source, so any replica adds to the same rows.
    const today = new Date().toISOString().slice(0, 10);
    const rows = await scraper.svc.ctx.db('scraper_places_usage').select('day', 'source', 'requests');
    expect(rows.map((row) => [new Date(row.day).toISOString().slice(0, 10), row.source]).sort())
      .toEqual([[today, 'decodo'], [today, 'google'], [today, 'nominatim'], [today, 'osm']]);

    // A second search of the same location adds to the same rows (its area comes from the geocode cache).
    await scraper.requestSearch({ search_id: 'usage-search-2', quantity: 500 });
    const second = (await scraper.finished('usage-search-2', 60_000)).data.coverage.sources;
    const osm = (await usageStats()).body.places_sources.find((row: { source: string }) => row.source === 'osm');
    expect(osm).toEqual({ source: 'osm', requests: sources.osm.requests + second.osm.requests, places: sources.osm.places + second.osm.places, errors: 0 });
    expect(await scraper.svc.ctx.db('scraper_places_usage').count({ n: '*' }).first()).toMatchObject({ n: 4 });
  }, 120_000);

  it('answers for the last N days, and refuses a period that is not a whole number of days', async () => {
    const all = (await usageStats()).body.places_sources;
    expect((await usageStats('?days=1')).body.places_sources).toEqual(all);
    for (const days of ['0', '367', '1.5', 'week']) {
      const refused = await usageStats(`?days=${days}`);
      expect({ days, status: refused.status, detail: refused.body.detail }).toEqual({ days, status: 400, detail: 'days must be a whole number from 1 to 366' });
    }
  });

  it('exports the provider requests per source as Prometheus counters', async () => {
    const metrics = await (await fetch(`${scraper.svc.url}/metrics`)).text();
    expect(metrics).toMatch(/leadforge_scraper_provider_requests_total\{source="osm"\} [1-9]/);
    expect(metrics).toMatch(/leadforge_scraper_provider_places_total\{source="google"\} [1-9]/);
    expect(metrics).toMatch(/leadforge_scraper_provider_errors_total\{source="decodo"\} [1-9]/);
  });

  it('clears the figures with the usage reset', async () => {
    await scraper.call('POST', '/api/admin/decodo-reset-stats', undefined, admin);
    expect((await usageStats()).body.places_sources).toEqual([]);
  });
});
