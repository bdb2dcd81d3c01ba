import { describe, expect, it } from 'vitest';
import { createOsmPlacesSource } from '../../src/places/osmPlacesSource.ts';
import { createNominatimGeocoder } from '../../src/places/nominatimGeocoder.ts';
import type { PlaceQuery } from '../../src/places/types.ts';
import { fixtureFetch, placesOf, readFixture } from './fixtureFetch.ts';

const NOMINATIM = 'https://nominatim.test';
const OVERPASS = 'https://overpass.test';

function osmSource(overpassBody: unknown) {
  const fake = fixtureFetch({
    [NOMINATIM]: [readFixture('nominatim', 'search-portland-head-light-us.json')],
    [OVERPASS]: [overpassBody],
  });
  const source = createOsmPlacesSource({ fetchJson: fake.fetchJson, overpassUrl: `${OVERPASS}/` });
  const geocode = createNominatimGeocoder(fake.fetchJson, NOMINATIM);
  // The area as the search geocodes it (Cape Elizabeth, a point: its box), then the source's own search of it.
  const search = async (query: PlaceQuery) => placesOf(source, query, await geocode(query.location));
  return { source: { search }, requests: fake.requests };
}

const queryOf = (body: string | undefined): string => decodeURIComponent((body ?? '').replace(/^data=/, ''));

describe('OpenStreetMap places source', () => {
  it('geocodes, then asks Overpass for the industry tags inside the area', async () => {
    const { source, requests } = osmSource(readFixture('overpass', 'istanbul-restaurants-cafes.json'));
    await (source.search({ industry: 'Restaurants', location: 'Cape Elizabeth', limit: 5 }));
    expect(requests.map((request) => request.url.split('?')[0])).toEqual([`${NOMINATIM}/search`, `${OVERPASS}/api/interpreter`]);
    const overpass = requests[1];
    expect(overpass.init?.method).toBe('POST');
    expect(overpass.init?.headers?.['content-type']).toBe('application/x-www-form-urlencoded');
    const ql = queryOf(overpass.init?.body);
    expect(ql).toMatch(/^\[out:json\]\[timeout:25\];/);
    expect(ql).toMatch(/nwr\["amenity"="restaurant"\]\[name\]\(43\.61\d+,-70\.21\d+,43\.63\d+,-70\.19\d+\);/);
    expect(ql).toMatch(/out center tags 15;$/);
  });

  it('maps OSM tags to places, the contactable ones first', async () => {
    const { source } = osmSource(readFixture('overpass', 'istanbul-restaurants-cafes.json'));
    const places = await (source.search({ industry: 'restaurant', location: 'Cape Elizabeth', limit: 40 }));
    // The whole answer (the search reads what it needs), the ones with a contact route first.
    expect(places.length).toBeGreaterThan(40);
    expect(places.slice(0, 30).every((place) => place.website || place.phone || place.email)).toBe(true);
    expect(places.find((place) => place.placeId === 'node/1501426221')).toEqual({
      placeId: 'node/1501426221',
      source: 'osm',
      name: 'Çiya Kebap 2',
      website: 'http://www.ciya.com.tr',
      phone: '+902164185115',
      email: 'info@ciya.com.tr',
      address: '34710',
      // Tags without addr:city / addr:country take the searched area's.
      city: 'Cape Elizabeth',
      country: 'US',
      lat: 40.989463,
      lon: 29.0243594,
      categories: ['restaurant', 'turkish'],
    });
  });

  it('takes ways with their centre and the address tags', async () => {
    const butuan = await (osmSource(readFixture('overpass', 'butuan-water-tubig.json')).source.search({ industry: 'water', location: 'Cape Elizabeth', limit: 50 }));
    expect(butuan.find((place) => place.placeId === 'way/435765349')).toMatchObject({
      name: 'Alviola Village',
      phone: '+632 918-8188',
      website: 'http://www.filinvest.com.ph/filinvest-homes-butuan',
      lat: 8.953863,
      lon: 125.5856953,
    });
    const jamundi = await (osmSource(readFixture('overpass', 'jamundi-hospitals.json')).source.search({ industry: 'hospital', location: 'Cape Elizabeth', limit: 5 }));
    expect(jamundi[0]).toMatchObject({ name: 'Angel Laboratorio', address: 'Calle 15 50, Jamundi', city: 'Jamundi', categories: ['hospital'] });
  });

  it('asks Overpass for the boundary polygon itself (poly:), not its bounding box', async () => {
    const fake = fixtureFetch({ [NOMINATIM]: [readFixture('nominatim', 'search-floresti-ro.geojson')], [OVERPASS]: [{ elements: [] }] });
    const area = await createNominatimGeocoder(fake.fetchJson, NOMINATIM)('Florești');
    const source = createOsmPlacesSource({ fetchJson: fake.fetchJson, overpassUrl: OVERPASS });
    const found = await placesOf(source, { industry: 'dentists', location: 'Florești', limit: 10 }, area);
    const ql = queryOf(fake.requests[1].init?.body);
    expect(ql).toMatch(/nwr\["amenity"="dentist"\]\[name\]\(poly:"46\.720344 23\.391135 46\.719979 23\.391492 /);
    expect(ql).not.toMatch(/\(46\.690039,23\.391135,46\.773654,23\.540552\)/);
    // Fewer elements than asked for: Overpass has nothing more in the area.
    expect(found.report.complete).toBe(true);
  });

  it('searches names for industries it has no tags for', async () => {
    const { source, requests } = osmSource(readFixture('overpass', 'jamundi-hospitals.json'));
    await (source.search({ industry: 'Chimney Sweeps', location: 'Cape Elizabeth', limit: 5 }));
    expect(queryOf(requests[1].init?.body)).toMatch(/nwr\[name~"chimney",i\]\(/);
  });

  it('reports a truncated or binary answer as an error at once', async () => {
    const search = (body: string) => (osmSource(body).source.search({ industry: 'cafe', location: 'Cape Elizabeth', limit: 5 }));
    await expect(search('{"version":0.6,"elements":[{"type":"node","id":1,"tags":{"na')).rejects.toThrow(/^Overpass API error: the answer is incomplete JSON/);
    await expect(search('\u001f\ufffd\b\u0000\u0000\ufffd\ufffd')).rejects.toThrow(/^Overpass API error: the answer is binary, not JSON$/);
  });

  it('reports the Overpass HTML error page as an error', async () => {
    const { source } = osmSource(readFixture('overpass', 'karov-error-response.html'));
    await expect((source.search({ industry: 'cafe', location: 'Cape Elizabeth', limit: 5 }))).rejects.toThrow(
      /^Overpass API error: line 1: static error: Invalid regular expression: "/,
    );
  });
});
