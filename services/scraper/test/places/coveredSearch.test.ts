import { describe, expect, it } from 'vitest';
import { loadScraperConfig } from '../../src/config.ts';
import { coveredSearch } from '../../src/places/coveredSearch.ts';
import type { GeocodedArea } from '../../src/places/nominatimGeocoder.ts';
import type { Place, PlacesSource, SourceName } from '../../src/places/types.ts';
import { collect } from './fixtureFetch.ts';

// A triangle: its bounding box holds places that are outside it.
const AREA: GeocodedArea = {
  south: 46.0, west: 23.0, north: 46.1, east: 23.1, name: 'Triangle', boundary: 'polygon', country: 'RO',
  polygons: [[[[23.0, 46.0], [23.1, 46.0], [23.0, 46.1], [23.0, 46.0]]]],
};
const INSIDE = { lat: 46.02, lon: 23.02 };
const OUTSIDE = { lat: 46.09, lon: 23.09 };

const place = (source: SourceName, placeId: string, fields: Partial<Place> = {}): Place => ({ source, placeId, name: `Business ${placeId}`, ...INSIDE, ...fields });

/** A source answering the given batches, then complete; or failing with `error`. */
function fakeSource(name: SourceName, batches: Place[][], error?: string): PlacesSource {
  return {
    name,
    async *searchArea(_area, _query, ctx, report) {
      if (error) throw new Error(error);
      for (const batch of batches) {
        ctx.takeRequest?.(name);
        report.cellsSearched++;
        yield batch;
      }
      report.complete = true;
    },
  };
}

const search = (sources: PlacesSource[], requestBudget = 60) =>
  coveredSearch({ geocode: async (_location, ctx) => { ctx.takeRequest?.('area'); return AREA; }, sources, requestBudget }, { industry: 'dentists', location: 'Triangle', limit: 100 });

describe('a search over every source', () => {
  it('merges one business found by two sources, each field from whichever has it', async () => {
    const covered = search([
      fakeSource('osm', [[place('osm', 'node/1', { website: 'https://www.praxis-pop.ro/kontakt', name: 'Cabinet Pop' })]]),
      fakeSource('google', [[
        place('google', 'g1', { website: 'http://praxis-pop.ro/', phone: '0264 300 001', country: 'RO', name: 'CABINET POP' }),
        place('google', 'g2', { phone: '+40 264 300 002', name: 'Cabinet Rus' }),
      ]]),
    ]);
    const places = await collect(covered.places);
    expect(places.map((p) => p.placeId)).toEqual(['node/1', 'g2']);
    expect(places[0]).toMatchObject({ source: 'osm', website: 'https://www.praxis-pop.ro/kontakt', phone: '0264 300 001' });
    expect(covered.coverage()).toMatchObject({ duplicates_merged: 1, places_found: 2, exhausted: true, provider_requests: 3 });
  });

  it('merges by phone, and by the same name within 100 m, but not two ids of one source', async () => {
    const covered = search([
      fakeSource('osm', [[
        place('osm', 'node/1', { phone: '+40264300001', country: 'RO' }),
        place('osm', 'node/2', { name: 'Dr. Lazăr', lat: 46.03, lon: 23.03 }),
        place('osm', 'node/3', { name: 'Same Chain', website: 'https://chain.ro/a' }),
        place('osm', 'node/4', { name: 'Same Chain 2', website: 'https://chain.ro/b' }),
      ]]),
      fakeSource('google', [[
        place('google', 'g1', { phone: '0264 300 001', country: 'RO' }),
        place('google', 'g2', { name: 'DR LAZAR', lat: 46.0302, lon: 23.0302 }),
        place('google', 'g3', { name: 'Dr. Lazăr', lat: 46.05, lon: 23.01 }),
      ]]),
    ]);
    const places = await collect(covered.places);
    expect(places.map((p) => p.placeId)).toEqual(['node/1', 'node/2', 'node/3', 'node/4', 'g3']);
    expect(covered.coverage()?.duplicates_merged).toBe(2);
  });

  it('keeps two businesses apart whose sites share a hosting platform, and merges one site under www. and without', async () => {
    const covered = search([
      fakeSource('osm', [[
        place('osm', 'node/1', { name: 'Cabinet Pop', website: 'https://cabinet-pop.wixsite.com/home' }),
        place('osm', 'node/2', { name: 'Cabinet Rus', website: 'https://www.cabinet-rus.co.uk/' }),
      ]]),
      fakeSource('google', [[
        place('google', 'g1', { name: 'Dent Art', website: 'https://dent-art.wixsite.com/home' }),
        place('google', 'g2', { name: 'Rus Dental', website: 'http://cabinet-rus.co.uk/contact' }),
      ]]),
    ]);
    expect((await collect(covered.places)).map((p) => p.placeId)).toEqual(['node/1', 'node/2', 'g1']);
    expect(covered.coverage()?.duplicates_merged).toBe(1);
  });

  it('drops and counts places outside the boundary, once each', async () => {
    const covered = search([fakeSource('google', [[place('google', 'in'), place('google', 'out', OUTSIDE)], [place('google', 'out', OUTSIDE)]])]);
    expect((await collect(covered.places)).map((p) => p.placeId)).toEqual(['in']);
    expect(covered.coverage()).toMatchObject({ area: { name: 'Triangle', boundary: 'polygon' }, places_outside_area: 1, places_found: 1, cells_searched: 2 });
  });

  it('goes on with the other sources when one fails, and reports its error', async () => {
    const covered = search([fakeSource('osm', [[place('osm', 'node/1')]]), fakeSource('google', [], 'Google Places API error: PERMISSION_DENIED')]);
    expect(await collect(covered.places)).toHaveLength(1);
    const coverage = covered.coverage()!;
    expect(coverage.sources.google).toEqual({ requests: 0, places: 0, error: 'Google Places API error: PERMISSION_DENIED' });
    expect(coverage.exhausted).toBe(false);
  });

  it('fails when every source fails', async () => {
    const covered = search([fakeSource('osm', [], 'Overpass API error: x'), fakeSource('google', [], 'Google Places API error: y')]);
    await expect(collect(covered.places)).rejects.toThrow('Overpass API error: x; Google Places API error: y');
  });

  it('is not exhausted when the reader stopped early or the budget ran out', async () => {
    const stopped = search([fakeSource('google', [[place('google', 'a')], [place('google', 'b')]])]);
    for await (const found of stopped.places) if (found) break;
    expect(stopped.coverage()?.exhausted).toBe(false);
    const budget = search([fakeSource('google', [[place('google', 'a')], [place('google', 'b')]])], 2);
    await collect(budget.places);
    expect(budget.coverage()?.provider_requests).toBe(2);
  });
});

describe('PLACES_SOURCES', () => {
  it('lists sources; PLACES_SOURCE names one; anything else is refused with the variable named', () => {
    expect(loadScraperConfig({ PLACES_SOURCES: 'osm, Google' }).placesSources).toEqual(['osm', 'google']);
    expect(loadScraperConfig({ PLACES_SOURCE: 'decodo' }).placesSources).toEqual(['decodo']);
    expect(loadScraperConfig({}).placesSources).toEqual(['osm']);
    expect(loadScraperConfig({}).providerRequestsPerSearch).toBe(60);
    expect(() => loadScraperConfig({ PLACES_SOURCES: 'osm,bing' })).toThrow(/PLACES_SOURCES.*"bing"/);
    expect(() => loadScraperConfig({ PLACES_SOURCE: 'osm,google' })).toThrow(/PLACES_SOURCE.*PLACES_SOURCES/);
  });
});
