import { describe, expect, it } from 'vitest';
import { OutboundError } from '@leadforge/kit/outbound';
import { createNominatimGeocoder } from '../../src/places/nominatimGeocoder.ts';
import { createLocationLookup } from '../../src/places/locationLookup.ts';
import { combinedFailureCode, failureCodeOf, PlacesFailure } from '../../src/places/placesFailure.ts';
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

  const town = (displayName: string, importance: number) => ({
    name: displayName.split(', ')[0], display_name: displayName, importance, addresstype: 'town',
    boundingbox: ['49.5', '49.6', '8.7', '8.8'], address: { town: displayName.split(', ')[0], country: 'Germany', country_code: 'de' },
  });
  const NEUSTADTS = [town('Neustadt an der Weinstraße, Rheinland-Pfalz, Germany', 0.5), town('Neustadt in Holstein, Schleswig-Holstein, Germany', 0.45)];

  it('fails a name two places share, nearly as well known, as location_ambiguous with their full names; the full name of one is that one', async () => {
    const { fetchJson } = fixtureFetch({ [BASE]: [NEUSTADTS] });
    const geocode = createNominatimGeocoder(fetchJson, BASE);
    const failure = await geocode('Neustadt').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PlacesFailure);
    expect(failure).toMatchObject({ code: 'location_ambiguous', candidates: NEUSTADTS.map((place) => place.display_name) });
    expect(await geocode('neustadt in holstein, schleswig-holstein, germany')).toMatchObject({ name: 'Neustadt in Holstein', displayName: NEUSTADTS[1].display_name, countryName: 'Germany' });
  });

  it('takes the first of several when it is much better known (London, England before London, Ontario)', async () => {
    const { fetchJson } = fixtureFetch({ [BASE]: [[town('London, England, United Kingdom', 0.9), town('London, Ontario, Canada', 0.5)]] });
    expect(await createNominatimGeocoder(fetchJson, BASE)('London')).toMatchObject({ displayName: 'London, England, United Kingdom' });
  });

  it('offers the places of the first part of an unknown location as did-you-mean', async () => {
    const { fetchJson, requests } = fixtureFetch({ [`${BASE}/search?format=jsonv2&addressdetails=1&limit=5&polygon_geojson=1&polygon_threshold=0.0005&q=`]: [[]], [BASE]: [[town('Lindenfeld, Hessen, Germany', 0.4)]] });
    const failure = await createNominatimGeocoder(fetchJson, BASE)('Lindenfeld, Atlantis').catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'location_not_found', candidates: ['Lindenfeld, Hessen, Germany'] });
    expect(new URL(requests[1].url).searchParams.get('q')).toBe('Lindenfeld');
  });

  it('tells the failures apart by what the provider did', () => {
    const status = (code: number) => new OutboundError('http_status', `answered ${code}`, BASE, code);
    expect(failureCodeOf(new OutboundError('network', 'ECONNREFUSED', BASE))).toBe('provider_unreachable');
    expect(failureCodeOf(new OutboundError('timeout', 'timed out', BASE))).toBe('provider_unreachable');
    expect(failureCodeOf(status(503))).toBe('provider_unreachable');
    expect(failureCodeOf(status(429))).toBe('provider_quota_exhausted');
    expect(failureCodeOf(new OutboundError('quota_exhausted', 'quota', BASE))).toBe('provider_quota_exhausted');
    expect(failureCodeOf(status(403))).toBe('provider_error');
    expect(failureCodeOf(new Error('Overpass API error: runtime error'))).toBe('provider_error');
    expect(combinedFailureCode(['no_source_configured', 'provider_unreachable'])).toBe('provider_unreachable');
    expect(combinedFailureCode(['no_source_configured', 'no_source_configured'])).toBe('no_source_configured');
  });

  it('looks locations up for a type-ahead: each match with its kind and box, the same text answered from memory', async () => {
    const { fetchJson, requests } = fixtureFetch({ [BASE]: [NEUSTADTS] });
    const lookup = createLocationLookup({ fetchJson, nominatimUrl: BASE, cacheMs: 60_000 });
    const answer = await lookup('Neustadt');
    expect(answer.ambiguous).toBe(true);
    expect(answer.locations[0]).toEqual({
      name: NEUSTADTS[0].display_name, short_name: 'Neustadt an der Weinstraße, Germany', country: 'Germany', country_code: 'DE', kind: 'town',
      boundary: { type: 'bbox', bbox: [8.7, 49.5, 8.8, 49.6] },
    });
    await lookup('  NEUSTADT ');
    expect(requests).toHaveLength(1);
  });
});
