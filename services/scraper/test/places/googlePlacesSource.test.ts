import { describe, expect, it } from 'vitest';
import { createGooglePlacesSource, GOOGLE_QUERY_CAP } from '../../src/places/googlePlacesSource.ts';
import type { GeocodedArea } from '../../src/places/nominatimGeocoder.ts';
import { fixtureFetch, placesOf, readFixture } from './fixtureFetch.ts';

const BASE = 'https://places.test';
const bulldog = readFixture('google-places', 'new-searchText-multi-bulldog.json') as object;
const bang = readFixture('google-places', 'new-searchText-single-bang-brewing.json');

function googleSource(...pages: unknown[]) {
  const fake = fixtureFetch({ [`${BASE}/v1/places:searchText`]: pages });
  return { source: createGooglePlacesSource({ fetchJson: fake.fetchJson, apiBase: `${BASE}/`, apiKey: 'test-key' }), requests: fake.requests };
}

const MINNEAPOLIS: GeocodedArea = { south: 44.89, west: -93.33, north: 45.05, east: -93.19, name: 'Minneapolis', boundary: 'bbox', country: 'US' };
const bodyOf = (request: { init?: { body?: string } }) => JSON.parse(request.init?.body ?? '{}');

/** A page of `count` places with ids `<prefix>-<n>`, all at the area's centre. */
const placesPage = (prefix: string, count: number, nextPageToken?: string) => ({
  places: Array.from({ length: count }, (_, n) => ({ id: `${prefix}-${n}`, displayName: { text: `${prefix} ${n}` }, location: { latitude: 44.97, longitude: -93.26 } })),
  ...(nextPageToken ? { nextPageToken } : {}),
});

describe('Google Places (New) source', () => {
  it('posts a Text Search restricted to the area, with the key and field mask', async () => {
    const { source, requests } = googleSource(bulldog);
    await placesOf(source, { industry: 'bars', location: 'Minneapolis', limit: 10 }, MINNEAPOLIS);
    const { init } = requests[0];
    expect(init?.method).toBe('POST');
    expect(init?.headers?.['X-Goog-Api-Key']).toBe('test-key');
    const mask = init?.headers?.['X-Goog-FieldMask'].split(',');
    expect(mask).toEqual(
      expect.arrayContaining([
        'places.id', 'places.displayName', 'places.formattedAddress', 'places.websiteUri', 'places.nationalPhoneNumber',
        'places.internationalPhoneNumber', 'places.addressComponents', 'places.location', 'nextPageToken',
      ]),
    );
    expect(bodyOf(requests[0])).toEqual({
      textQuery: 'bars',
      pageSize: 20,
      locationRestriction: { rectangle: { low: { latitude: 44.89, longitude: -93.33 }, high: { latitude: 45.05, longitude: -93.19 } } },
    });
  });

  it('maps the recorded places', async () => {
    const places = await placesOf(googleSource(bulldog).source, { industry: 'bars', location: 'Minneapolis', limit: 10 }, MINNEAPOLIS);
    expect(places).toHaveLength(2);
    expect(places[0]).toMatchObject({
      placeId: 'ChIJObThls0ys1IRoITXyZDymBM',
      source: 'google',
      name: 'The Bulldog Uptown',
      website: 'http://thebulldoguptown.com/',
      phone: '(612) 872-8893',
      address: '2549 Lyndale Ave S, Minneapolis',
    });
    expect(places[0].categories).toContain('bar_and_grill');
    expect(places[0].lat).toBeTypeOf('number');
    // One cell below the cap: the area is covered.
    expect(places.report).toEqual({ cellsSearched: 1, cellsSaturated: 0, complete: true });
  });

  it('follows nextPageToken within a cell', async () => {
    const { source, requests } = googleSource({ ...bulldog, nextPageToken: 'page-2' }, bang);
    const places = await placesOf(source, { industry: 'bars', location: 'Minneapolis', limit: 3 }, MINNEAPOLIS);
    expect(places.map((place) => place.name)).toEqual(['The Bulldog Uptown', 'The Bulldog Downtown', 'Bang Brewing Company']);
    expect(bodyOf(requests[1])).toMatchObject({ textQuery: 'bars', pageSize: 20, pageToken: 'page-2' });
    expect(places[2].phone).toBeUndefined();
  });

  it('splits a saturated cell into four, the nearest the centre first, and stops when no cell is saturated', async () => {
    // The whole area answers the cap (three pages of 20); each quarter answers fewer.
    const { source, requests } = googleSource(
      placesPage('a', 20, 't2'), placesPage('b', 20, 't3'), placesPage('c', 20),
      placesPage('q1', 5), placesPage('q2', 5), placesPage('q3', 5), placesPage('q4', 5),
    );
    const places = await placesOf(source, { industry: 'bars', location: 'Minneapolis', limit: 500 }, MINNEAPOLIS);
    expect(requests).toHaveLength(7);
    expect(places).toHaveLength(GOOGLE_QUERY_CAP + 20);
    expect(places.report).toEqual({ cellsSearched: 5, cellsSaturated: 1, complete: true });
    const rectangles = requests.slice(3).map((request) => bodyOf(request).locationRestriction.rectangle);
    const centre = { lat: (44.89 + 45.05) / 2, lon: (-93.33 + -93.19) / 2 };
    for (const rectangle of rectangles) {
      expect([rectangle.low.latitude, rectangle.high.latitude]).toContain(centre.lat);
      expect([rectangle.low.longitude, rectangle.high.longitude]).toContain(centre.lon);
    }
    // The same search asks the same cells in the same order.
    const again = googleSource(
      placesPage('a', 20, 't2'), placesPage('b', 20, 't3'), placesPage('c', 20),
      placesPage('q1', 5), placesPage('q2', 5), placesPage('q3', 5), placesPage('q4', 5),
    );
    await placesOf(again.source, { industry: 'bars', location: 'Minneapolis', limit: 500 }, MINNEAPOLIS);
    expect(again.requests.map(bodyOf)).toEqual(requests.map(bodyOf));
  });

  it('skips cells outside the boundary polygon', async () => {
    // A triangle in the south-west half of the box: the north-east quarter holds none of it.
    const triangle: GeocodedArea = {
      ...MINNEAPOLIS, boundary: 'polygon',
      polygons: [[[[-93.33, 44.89], [-93.19, 44.89], [-93.33, 45.05], [-93.33, 44.89]]]],
    };
    const { source, requests } = googleSource(placesPage('a', 20, 't2'), placesPage('b', 20, 't3'), placesPage('c', 20), placesPage('q', 1));
    const places = await placesOf(source, { industry: 'bars', location: 'Minneapolis', limit: 500 }, triangle);
    expect(places.report.cellsSearched).toBe(4);
    const northEast = requests.slice(3).map((request) => bodyOf(request).locationRestriction.rectangle)
      .filter((rectangle) => rectangle.low.latitude > 44.96 && rectangle.low.longitude > -93.27);
    expect(northEast).toEqual([]);
  });

  it('stops where the request budget ends', async () => {
    const { source, requests } = googleSource(placesPage('a', 20, 't2'), placesPage('b', 20, 't3'), placesPage('c', 20));
    let left = 4;
    const report = { cellsSearched: 0, cellsSaturated: 0, complete: false };
    const batches = [];
    for await (const batch of source.searchArea(MINNEAPOLIS, { industry: 'bars', location: 'Minneapolis', limit: 500 }, { takeRequest: () => left-- > 0 }, report)) batches.push(batch);
    expect(requests).toHaveLength(4);
    expect(report.complete).toBe(false);
  });

  it('reports API errors', async () => {
    const { source } = googleSource({ error: { code: 403, status: 'PERMISSION_DENIED', message: 'API key not valid.' } });
    await expect(placesOf(source, { industry: 'bars', location: 'x', limit: 5 }, MINNEAPOLIS)).rejects.toThrow(
      'Google Places API error: PERMISSION_DENIED API key not valid.',
    );
  });
});
