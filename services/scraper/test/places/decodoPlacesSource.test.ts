import { describe, expect, it } from 'vitest';
import { coveredSearch } from '../../src/places/coveredSearch.ts';
import { createDecodoPlacesSource } from '../../src/places/decodoPlacesSource.ts';
import { ANYWHERE, collect, fixtureFetch, placesOf, readFixture } from './fixtureFetch.ts';

const BASE = 'https://scraper-api.test';
const page = readFixture('decodo', 'google-maps-parsed.json');
const emptyPage = { results: [{ content: { results: { results: { organic: [] }, parse_status_code: 12000 }, status_code: 12000 } }] };

function decodoSource(...pages: unknown[]) {
  const fake = fixtureFetch({ [`${BASE}/v2/scrape`]: pages });
  return { source: createDecodoPlacesSource({ fetchJson: fake.fetchJson, apiBase: BASE, token: 'dXNlcjpwYXNz' }), requests: fake.requests };
}

describe('Decodo google_maps source', () => {
  it('posts a parsed google_maps scrape with Basic auth', async () => {
    const { source, requests } = decodoSource(page, emptyPage);
    await placesOf(source, { industry: 'coffee shops', location: 'brooklyn', limit: 10 });
    expect(requests[0].init?.method).toBe('POST');
    expect(requests[0].init?.headers?.authorization).toBe('Basic dXNlcjpwYXNz');
    expect(JSON.parse(requests[0].init?.body ?? '')).toEqual({ target: 'google_maps', query: 'coffee shops brooklyn', parse: true, page_from: 1 });
    expect(JSON.parse(requests[1].init?.body ?? '').page_from).toBe(2);
  });

  it('maps parsed results and stops at an empty page', async () => {
    const { source, requests } = decodoSource(page, emptyPage);
    const places = await placesOf(source, { industry: 'coffee shops', location: 'brooklyn', limit: 10 });
    expect(requests).toHaveLength(2);
    expect(places.map((place) => place.name)).toEqual(['Sample Roasters', 'Placeholder Espresso Bar', 'Demo Café']);
    expect(places[0]).toEqual({
      placeId: 'ChIJsample000000000000001',
      source: 'decodo',
      name: 'Sample Roasters',
      website: 'https://sample-roasters.example.com/',
      phone: '+1 718-555-0101',
      address: '100 Example St, Brooklyn, NY 11201',
      city: undefined,
      country: undefined,
      lat: 40.6901,
      lon: -73.9911,
      categories: ['Coffee shop'],
    });
  });

  it('stops at the limit and when a page repeats', async () => {
    const limited = decodoSource(page);
    // The page holds three: the limit stops the next request, not the page.
    expect(await placesOf(limited.source, { industry: 'cafe', location: 'x', limit: 2 })).toHaveLength(3);
    expect(limited.requests).toHaveLength(1);
    const repeating = decodoSource(page);
    expect(await placesOf(repeating.source, { industry: 'cafe', location: 'x', limit: 50 })).toHaveLength(3);
    expect(repeating.requests).toHaveLength(2);
  });

  /** One page of Maps results as Decodo's parser nests them: `count` places, ids from `from`. */
  const mapsPage = (from: number, count: number) => ({
    results: [{ content: { results: { results: { organic: Array.from({ length: count }, (_, i) => ({
      title: `Dentist ${from + i}`, place_id: `ChIJpage${from + i}`,
    })) }, parse_status_code: 12000 }, status_code: 12000 } }],
  });

  it('reports the search of the area complete only when the list ran out on a short page', async () => {
    const short = decodoSource(page, emptyPage);
    const shortPlaces = await placesOf(short.source, { industry: 'cafe', location: 'x', limit: 50 });
    expect(shortPlaces.report).toEqual({ cellsSearched: 1, cellsSaturated: 0, complete: true });
  });

  it('never reports complete when the list ended on a full page: Maps may have cut it at its cap', async () => {
    // Two full pages of 20, then nothing: what a capped list looks like as much as a finished one.
    const capped = decodoSource(mapsPage(1, 20), mapsPage(21, 20), emptyPage);
    const places = await placesOf(capped.source, { industry: 'dentist', location: 'x', limit: 500 });
    expect(places).toHaveLength(40);
    expect(places.report).toEqual({ cellsSearched: 1, cellsSaturated: 1, complete: false });
    // A full page answered again in place of the next one likewise.
    const repeating = decodoSource(mapsPage(1, 20));
    const again = await placesOf(repeating.source, { industry: 'dentist', location: 'x', limit: 500 });
    expect(again).toHaveLength(20);
    expect(again.report).toMatchObject({ cellsSaturated: 1, complete: false });
  });

  it('a search whose Maps list ended on a full page is not exhausted, and says a cell saturated', async () => {
    const { source } = decodoSource(mapsPage(1, 20), mapsPage(21, 20), emptyPage);
    const covered = coveredSearch({ geocode: async () => ANYWHERE, sources: [source], requestBudget: 60 }, { industry: 'dentist', location: 'x', limit: 500 });
    expect(await collect(covered.places)).toHaveLength(40);
    expect(covered.coverage()).toMatchObject({ cells_searched: 1, cells_saturated: 1, provider_requests: 3, places_found: 40, exhausted: false });
    const short = decodoSource(page, emptyPage);
    const whole = coveredSearch({ geocode: async () => ANYWHERE, sources: [short.source], requestBudget: 60 }, { industry: 'cafe', location: 'x', limit: 500 });
    await collect(whole.places);
    expect(whole.coverage()).toMatchObject({ cells_searched: 1, cells_saturated: 0, exhausted: true });
  });

  it('is not complete when it stopped at the limit', async () => {
    const limited = decodoSource(mapsPage(1, 20), mapsPage(21, 5), emptyPage);
    const places = await placesOf(limited.source, { industry: 'dentist', location: 'x', limit: 10 });
    expect(places).toHaveLength(20);
    expect(places.report.complete).toBe(false);
  });

  it('reports errors', async () => {
    const { source } = decodoSource({ message: 'Unauthorized' });
    await expect(placesOf(source, { industry: 'cafe', location: 'x', limit: 5 })).rejects.toThrow('Decodo Web Scraping API error: Unauthorized');
  });
});
