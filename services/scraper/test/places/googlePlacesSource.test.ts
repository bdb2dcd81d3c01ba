import { describe, expect, it } from 'vitest';
import { createGooglePlacesSource } from '../../src/domain/places/googlePlacesSource.ts';
import { collect, fixtureFetch, readFixture } from './fixtureFetch.ts';

const BASE = 'https://places.test';
const bulldog = readFixture('google-places', 'new-searchText-multi-bulldog.json') as object;
const bang = readFixture('google-places', 'new-searchText-single-bang-brewing.json');

function googleSource(...pages: unknown[]) {
  const fake = fixtureFetch({ [`${BASE}/v1/places:searchText`]: pages });
  return { source: createGooglePlacesSource({ fetchJson: fake.fetchJson, apiBase: `${BASE}/`, apiKey: 'test-key' }), requests: fake.requests };
}

describe('Google Places (New) source', () => {
  it('posts a Text Search with the key and field mask', async () => {
    const { source, requests } = googleSource(bulldog);
    await collect(source.search({ industry: 'bars', location: 'Minneapolis', limit: 10 }, {}));
    const { init } = requests[0];
    expect(init?.method).toBe('POST');
    expect(init?.headers?.['X-Goog-Api-Key']).toBe('test-key');
    const mask = init?.headers?.['X-Goog-FieldMask'].split(',');
    expect(mask).toEqual(
      expect.arrayContaining([
        'places.id', 'places.displayName', 'places.formattedAddress', 'places.websiteUri', 'places.nationalPhoneNumber',
        'places.internationalPhoneNumber', 'places.addressComponents', 'nextPageToken',
      ]),
    );
    expect(JSON.parse(init?.body ?? '')).toEqual({ textQuery: 'bars in Minneapolis', pageSize: 10 });
  });

  it('maps the recorded places', async () => {
    const places = await collect(googleSource(bulldog).source.search({ industry: 'bars', location: 'Minneapolis', limit: 10 }, {}));
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
  });

  it('follows nextPageToken until the limit', async () => {
    const { source, requests } = googleSource({ ...bulldog, nextPageToken: 'page-2' }, bang);
    const places = await collect(source.search({ industry: 'bars', location: 'Minneapolis', limit: 3 }, {}));
    expect(places.map((place) => place.name)).toEqual(['The Bulldog Uptown', 'The Bulldog Downtown', 'Bang Brewing Company']);
    expect(JSON.parse(requests[1].init?.body ?? '')).toEqual({ textQuery: 'bars in Minneapolis', pageSize: 1, pageToken: 'page-2' });
    expect(places[2].phone).toBeUndefined();

    const limited = googleSource({ ...bulldog, nextPageToken: 'page-2' }, bang);
    expect(await collect(limited.source.search({ industry: 'bars', location: 'Minneapolis', limit: 1 }, {}))).toHaveLength(1);
    expect(limited.requests).toHaveLength(1);
  });

  it('reports API errors', async () => {
    const { source } = googleSource({ error: { code: 403, status: 'PERMISSION_DENIED', message: 'API key not valid.' } });
    await expect(collect(source.search({ industry: 'bars', location: 'x', limit: 5 }, {}))).rejects.toThrow(
      'Google Places API error: PERMISSION_DENIED API key not valid.',
    );
  });
});
