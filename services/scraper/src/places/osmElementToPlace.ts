import type { GeocodedArea } from './nominatimGeocoder.ts';
import type { Place } from './types.ts';

export interface OsmElement {
  type: 'node' | 'way' | 'relation';
  id: number;
  lat?: number;
  lon?: number;
  center?: { lat: number; lon: number };
  tags?: Record<string, string>;
}

const CATEGORY_KEYS = ['amenity', 'shop', 'craft', 'office', 'healthcare', 'tourism', 'leisure', 'sport', 'cuisine'];

/** The first of several values ("+49 1; +49 2"), from the first key that has one. */
function first(tags: Record<string, string>, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const value = tags[key]?.split(';')[0]?.trim();
    if (value) return value;
  }
  return undefined;
}

function addressOf(tags: Record<string, string>): string | undefined {
  const street = [tags['addr:street'], tags['addr:housenumber']].filter(Boolean).join(' ');
  const town = [tags['addr:postcode'], tags['addr:city']].filter(Boolean).join(' ');
  return first(tags, 'addr:full') ?? ([street, town].filter(Boolean).join(', ') || undefined);
}

/** A place from an Overpass element, filling city and country from the searched area; undefined without a name. */
export function osmElementToPlace(element: OsmElement, area: GeocodedArea): Place | undefined {
  const tags = element.tags ?? {};
  const name = first(tags, 'name', 'brand');
  if (!name) return undefined;
  const categories = CATEGORY_KEYS.flatMap((key) => tags[key]?.split(';').map((value) => value.trim()) ?? []);
  return {
    placeId: `${element.type}/${element.id}`,
    source: 'osm',
    name,
    website: first(tags, 'website', 'contact:website', 'url'),
    phone: first(tags, 'phone', 'contact:phone', 'contact:mobile', 'mobile'),
    email: first(tags, 'email', 'contact:email'),
    address: addressOf(tags),
    city: first(tags, 'addr:city') ?? area.city,
    country: first(tags, 'addr:country')?.toUpperCase() ?? area.country,
    lat: element.lat ?? element.center?.lat,
    lon: element.lon ?? element.center?.lon,
    categories: categories.length ? categories : undefined,
  };
}
