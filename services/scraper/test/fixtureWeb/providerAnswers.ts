/**
 * The places providers' answers, in their documented shapes, for the businesses the fixture web
 * hosts: Nominatim search (jsonv2), Overpass (out center tags), Google Places API (New)
 * searchText, Decodo Web Scraping API google_maps (parsed), Decodo account API subscriptions.
 */
export interface FixturePlace {
  id: number;
  name: string;
  website?: string;
  city?: string;
  country?: string;
  phone?: string;
  email?: string;
}

export const FIXTURE_AREA = { south: 51.28, north: 51.69, west: -0.51, east: 0.33, city: 'London', countryCode: 'gb' };

/** "area-3" geocodes three degrees north of the fixture area: its own slice of the places. */
const areaShift = (query: string): number => Number(/\barea-(\d+)\b/i.exec(query)?.[1] ?? 0);

/** A town of the fixture world, its places those of "area-5" (its box is that slice's). */
export const FIXTURE_TOWN = { name: 'Lindenfeld', displayName: 'Lindenfeld, Landkreis Bergstraße, Hessen, Germany', shortName: 'Lindenfeld, Germany', shift: 5 };
/** A name three places share, none much better known than the others: a search of it is ambiguous. */
export const FIXTURE_AMBIGUOUS = {
  name: 'Neustadt',
  places: ['Neustadt an der Weinstraße, Rheinland-Pfalz, Germany', 'Neustadt in Holstein, Ostholstein, Schleswig-Holstein, Germany', 'Neustadt bei Coburg, Landkreis Coburg, Bayern, Germany'],
};
/** A place that does not exist: Nominatim answers an empty list. */
export const FIXTURE_NOWHERE = 'Atlantis';

/** One jsonv2 result of a town in Germany, its box `shift` degrees north of the fixture area. */
function germanTown(displayName: string, shift: number, importance: number, id: number): unknown {
  const [name, ...rest] = displayName.split(', ');
  return {
    place_id: 100_000 + id, licence: 'Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright',
    osm_type: 'relation', osm_id: 200_000 + id, lat: String(51.5 + shift), lon: '-0.12',
    category: 'boundary', type: 'administrative', place_rank: 16, importance, addresstype: 'town',
    name, display_name: displayName,
    address: { town: name, ...(rest.length > 2 ? { county: rest[0] } : {}), state: rest.at(-2), country: 'Germany', country_code: 'de' },
    boundingbox: [String(FIXTURE_AREA.south + shift), String(FIXTURE_AREA.north + shift), String(FIXTURE_AREA.west), String(FIXTURE_AREA.east)],
  };
}

/**
 * Nominatim's search: Atlantis is nowhere, Neustadt three places, Lindenfeld one town (its full name
 * too); every other text is London (or, with "area-N", a slice of the places N degrees north).
 */
export function nominatimSearch(query: string): unknown {
  const folded = query.toLowerCase();
  if (folded.includes(FIXTURE_NOWHERE.toLowerCase())) return [];
  if (folded.includes(FIXTURE_AMBIGUOUS.name.toLowerCase())) {
    const exact = FIXTURE_AMBIGUOUS.places.findIndex((place) => place.toLowerCase() === folded.trim());
    const places = FIXTURE_AMBIGUOUS.places.map((place, i) => germanTown(place, 10 + i, 0.5 - i * 0.02, i + 1));
    return exact >= 0 ? [places[exact]] : places;
  }
  if (folded.includes(FIXTURE_TOWN.name.toLowerCase())) return [germanTown(FIXTURE_TOWN.displayName, FIXTURE_TOWN.shift, 0.45, 0)];
  const shift = areaShift(query);
  return [{
    place_id: 344_385_499,
    licence: 'Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright',
    osm_type: 'relation',
    osm_id: 65_606,
    lat: '51.5074456',
    lon: '-0.1277653',
    category: 'boundary',
    type: 'administrative',
    place_rank: 8,
    importance: 0.85,
    addresstype: 'city',
    name: 'London',
    display_name: `London, Greater London, England, United Kingdom (${query})`,
    address: { city: FIXTURE_AREA.city, state_district: 'Greater London', state: 'England', country: 'United Kingdom', country_code: FIXTURE_AREA.countryCode },
    boundingbox: [String(FIXTURE_AREA.south + shift), String(FIXTURE_AREA.north + shift), String(FIXTURE_AREA.west), String(FIXTURE_AREA.east)],
  }];
}

/**
 * Overpass answers at most the `out ... N` count the query asks for; with `perArea`, the places of
 * the area the query's bounding box names (see nominatimSearch), `perArea` of them.
 */
export function overpassInterpreter(allPlaces: FixturePlace[], query: string, perArea?: number): unknown {
  const south = Number(/\((-?[\d.]+),/.exec(query)?.[1] ?? FIXTURE_AREA.south);
  const area = Math.max(0, Math.round(south - FIXTURE_AREA.south));
  const places = perArea ? allPlaces.slice(area * perArea, (area + 1) * perArea) : allPlaces;
  // `out count;`: how many the selection holds, as Overpass counts them (all nodes here).
  if (/\bout count;/.test(query)) {
    const total = String(places.length);
    return { version: 0.6, generator: 'Overpass API 0.7.62.8 e802775f', elements: [{ type: 'count', id: 0, tags: { nodes: total, ways: '0', relations: '0', total } }] };
  }
  const limit = Number(/out[^;]*?\s(\d+)\s*;/.exec(query)?.[1] ?? places.length);
  return {
    version: 0.6,
    generator: 'Overpass API 0.7.62.8 e802775f',
    osm3s: { timestamp_osm_base: '2025-12-04T11:12:14Z', copyright: 'The data included in this document is from www.openstreetmap.org. The data is made available under ODbL.' },
    elements: places.slice(0, limit).map((place) => ({
      type: 'node',
      id: 1_000_000 + place.id,
      // Inside the area asked for ("area-N" is N degrees north): the engine drops places outside it.
      lat: 51.5 + area + (place.id % 100) / 1000,
      lon: -0.12 + (place.id % 97) / 1000,
      tags: {
        amenity: 'dentist',
        name: place.name,
        ...(place.website ? { website: place.website } : {}),
        ...(place.city ? { 'addr:city': place.city } : {}),
        ...(place.country ? { 'addr:country': place.country } : {}),
        ...(place.phone ? { phone: place.phone } : {}),
        ...(place.email ? { 'contact:email': place.email } : {}),
      },
    })),
  };
}

export function googleSearchText(places: FixturePlace[], body: { pageSize?: number; pageToken?: string }): unknown {
  const start = Number(body.pageToken ?? 0);
  const size = Math.min(body.pageSize ?? 20, 20);
  const slice = places.slice(start, start + size);
  return {
    places: slice.map((place) => ({
      name: `places/ChIJfixture${place.id}`,
      id: `ChIJfixture${place.id}`,
      types: ['dentist', 'health', 'point_of_interest', 'establishment'],
      ...(place.phone ? { nationalPhoneNumber: place.phone } : {}),
      formattedAddress: `${place.id} High Street, ${place.city ?? 'London'}, UK`,
      addressComponents: [
        { longText: place.city ?? 'London', shortText: place.city ?? 'London', types: ['postal_town'] },
        { longText: 'United Kingdom', shortText: (place.country ?? 'GB').toUpperCase(), types: ['country', 'political'] },
      ],
      location: { latitude: 51.5, longitude: -0.12 },
      ...(place.website ? { websiteUri: place.website } : {}),
      displayName: { text: place.name, languageCode: 'en' },
    })),
    ...(start + size < places.length ? { nextPageToken: String(start + size) } : {}),
  };
}

export function decodoGoogleMaps(places: FixturePlace[], body: { query?: string; page_from?: number }): unknown {
  const page = body.page_from ?? 1;
  const slice = places.slice((page - 1) * 20, page * 20);
  return {
    results: [{
      content: {
        results: {
          url: `https://www.google.com/maps/search/${encodeURIComponent(body.query ?? '')}`,
          page,
          query: body.query,
          results: {
            organic: slice.map((place, i) => ({
              pos: (page - 1) * 20 + i + 1,
              title: place.name,
              place_id: `ChIJdecodo${place.id}`,
              address: `${place.id} High Street, ${place.city ?? 'London'}`,
              ...(place.phone ? { phone: place.phone } : {}),
              ...(place.website ? { website: place.website } : {}),
              category: 'Dentist',
              gps_coordinates: { latitude: 51.5, longitude: -0.12 },
            })),
          },
          parse_status_code: 12000,
        },
        errors: [],
        status_code: 12000,
        task_id: `fixture-${page}`,
      },
      headers: {},
      status_code: 200,
      url: 'https://www.google.com/maps',
      task_id: `fixture-${page}`,
      created_at: '2025-01-01 00:00:00',
      updated_at: '2025-01-01 00:00:01',
    }],
  };
}

/** GET /v2/subscriptions of the Decodo account API: traffic in GB as strings. */
export function decodoSubscriptions(): unknown {
  return [{
    traffic_limit: '25',
    traffic: '3.75',
    proxy_users_limit: 3,
    ip_address_limit: 0,
    valid_from: '2025-01-01',
    valid_until: '2026-01-01',
    service_type: 'residential_proxies',
  }];
}
