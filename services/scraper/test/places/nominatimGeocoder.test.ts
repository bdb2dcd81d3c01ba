import { describe, expect, it } from 'vitest';
import { createNominatimGeocoder } from '../../src/places/nominatimGeocoder.ts';
import { fixtureFetch, readFixture } from './fixtureFetch.ts';

const nominatim = (file: string): unknown => readFixture('nominatim', file);
const BASE = 'https://nominatim.test';

describe('Nominatim geocoding', () => {
  it('asks /search for one jsonv2 result with address details and the boundary polygon', async () => {
    const { fetchJson, requests } = fixtureFetch({ [BASE]: [nominatim('search-portland-head-light-us.json')] });
    const area = await createNominatimGeocoder(fetchJson, `${BASE}/`)('Portland Head Light, Maine');
    const url = new URL(requests[0].url);
    expect(url.pathname).toBe('/search');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      format: 'jsonv2',
      addressdetails: '1',
      limit: '5',
      polygon_geojson: '1',
      polygon_threshold: '0.0005',
      q: 'Portland Head Light, Maine',
    });
    // A point has no boundary: the area is its (widened) box.
    expect(area.boundary).toBe('bbox');
    expect(area.polygons).toBeUndefined();
    expect(area.country).toBe('US');
    // A single building is widened to a search area around it.
    expect(area.north - area.south).toBeCloseTo(0.02, 5);
    expect((area.north + area.south) / 2).toBeCloseTo((43.6230777 + 43.6231433) / 2, 6);
    expect(area.west).toBeLessThan(-70.2079123);
  });

  it('reads the bbox of GeoJSON answers', async () => {
    const { fetchJson } = fixtureFetch({ [BASE]: [nominatim('search-floresti-ro.geojson')] });
    const area = await createNominatimGeocoder(fetchJson, BASE)('Florești');
    expect(area).toMatchObject({ south: 46.6900389, west: 23.3911351, north: 46.7736541, east: 23.5405517, name: 'Florești', boundary: 'polygon' });
    expect(area.polygons).toHaveLength(1);
    expect(area.polygons![0][0]).toHaveLength(522);
  });

  it('takes the boundary of a jsonv2 answer with geojson, and a MultiPolygon whole', async () => {
    const feature = (nominatim('search-floresti-ro.geojson') as { features: { geometry: { coordinates: number[][][] } }[] }).features[0];
    const ring = feature.geometry.coordinates[0];
    const jsonv2 = [{ name: 'Florești', boundingbox: ['46.6900389', '46.7736541', '23.3911351', '23.5405517'], address: { town: 'Florești', country_code: 'ro' }, geojson: { type: 'MultiPolygon', coordinates: [[ring], [ring]] } }];
    const area = await createNominatimGeocoder(fixtureFetch({ [BASE]: [jsonv2] }).fetchJson, BASE)('Florești');
    expect(area).toMatchObject({ name: 'Florești', boundary: 'polygon', city: 'Florești', country: 'RO' });
    expect(area.polygons).toHaveLength(2);
  });

  it('remembers geocodes and reports unknown locations', async () => {
    const { fetchJson, requests } = fixtureFetch({
      [`${BASE}/search?format=jsonv2&addressdetails=1&limit=5&polygon_geojson=1&polygon_threshold=0.0005&q=Krasnoyarsk`]: [nominatim('search-krasnoyarsk-address-ru.json')],
      [`${BASE}/search?format=jsonv2&addressdetails=1&limit=5&polygon_geojson=1&polygon_threshold=0.0005&q=Atlantis`]: [[]],
    });
    const geocode = createNominatimGeocoder(fetchJson, BASE);
    await geocode('Krasnoyarsk');
    await geocode(' krasnoyarsk ');
    expect(requests).toHaveLength(1);
    await expect(geocode('Atlantis')).rejects.toThrow('Nominatim found no area for location "Atlantis"');
  });

  it('asks every time with a cache of 0 hours (SCRAPER_GEOCODE_CACHE_HOURS=0)', async () => {
    const answer = nominatim('search-krasnoyarsk-address-ru.json');
    const { fetchJson, requests } = fixtureFetch({ [BASE]: [answer, answer] });
    const geocode = createNominatimGeocoder(fetchJson, BASE, { hours: 0 });
    await geocode('Krasnoyarsk');
    await geocode('Krasnoyarsk');
    expect(requests).toHaveLength(2);
  });
});
