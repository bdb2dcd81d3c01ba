import { describe, expect, it } from 'vitest';
import { createNominatimGeocoder } from '../../src/domain/places/nominatimGeocoder.ts';
import { fixtureFetch, readFixture } from './fixtureFetch.ts';

const nominatim = (file: string): unknown => readFixture('nominatim', file);
const BASE = 'https://nominatim.test';

describe('Nominatim geocoding', () => {
  it('asks /search for one jsonv2 result with address details', async () => {
    const { fetchJson, requests } = fixtureFetch({ [BASE]: [nominatim('search-portland-head-light-us.json')] });
    const area = await createNominatimGeocoder(fetchJson, `${BASE}/`)('Portland Head Light, Maine');
    const url = new URL(requests[0].url);
    expect(url.pathname).toBe('/search');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      format: 'jsonv2',
      addressdetails: '1',
      limit: '1',
      q: 'Portland Head Light, Maine',
    });
    expect(area.country).toBe('US');
    // A single building is widened to a search area around it.
    expect(area.north - area.south).toBeCloseTo(0.02, 5);
    expect((area.north + area.south) / 2).toBeCloseTo((43.6230777 + 43.6231433) / 2, 6);
    expect(area.west).toBeLessThan(-70.2079123);
  });

  it('reads the bbox of GeoJSON answers', async () => {
    const { fetchJson } = fixtureFetch({ [BASE]: [nominatim('search-floresti-ro.geojson')] });
    const area = await createNominatimGeocoder(fetchJson, BASE)('Florești');
    expect(area).toMatchObject({ south: 46.6900389, west: 23.3911351, north: 46.7736541, east: 23.5405517 });
  });

  it('remembers geocodes and reports unknown locations', async () => {
    const { fetchJson, requests } = fixtureFetch({
      [`${BASE}/search?format=jsonv2&addressdetails=1&limit=1&q=Krasnoyarsk`]: [nominatim('search-krasnoyarsk-address-ru.json')],
      [`${BASE}/search?format=jsonv2&addressdetails=1&limit=1&q=Atlantis`]: [[]],
    });
    const geocode = createNominatimGeocoder(fetchJson, BASE);
    await geocode('Krasnoyarsk');
    await geocode(' krasnoyarsk ');
    expect(requests).toHaveLength(1);
    await expect(geocode('Atlantis')).rejects.toThrow('Nominatim found no area for location "Atlantis"');
  });
});
