import type { LocationMatch } from '@leadforge/contracts';
import { PlacesFailure } from './placesFailure.ts';
import type { FetchJson, GeocodedArea, Position, SearchContext } from './types.ts';

export type { GeocodedArea, Position } from './types.ts';

// A street address or a single building geocodes to a box a few metres wide; search around it.
const MIN_SPAN_DEGREES = 0.02;

interface GeoJsonGeometry {
  type?: string;
  coordinates?: unknown;
}

interface NominatimResult {
  boundingbox?: string[];
  bbox?: number[];
  name?: string;
  display_name?: string;
  addresstype?: string;
  type?: string;
  importance?: number;
  address?: Record<string, string>;
  /** jsonv2 with polygon_geojson=1. */
  geojson?: GeoJsonGeometry;
  /** format=geojson: the feature's geometry. */
  geometry?: GeoJsonGeometry;
  properties?: { name?: string; display_name?: string; addresstype?: string; type?: string; importance?: number; address?: Record<string, string> };
}

/** The polygons of a Polygon or MultiPolygon geometry; undefined for a point or a line (the bbox is the area then). */
function polygonsOf(geometry: GeoJsonGeometry | undefined): Position[][][] | undefined {
  if (geometry?.type === 'Polygon') return [geometry.coordinates as Position[][]];
  if (geometry?.type === 'MultiPolygon') return geometry.coordinates as Position[][][];
  return undefined;
}

/** The results of a jsonv2 array or a GeoJSON feature collection. */
function resultsOf(body: unknown): NominatimResult[] {
  if (Array.isArray(body)) return body as NominatimResult[];
  const features = (body as { features?: NominatimResult[] } | null)?.features;
  return Array.isArray(features) ? features : [];
}

function widen(low: number, high: number): [number, number] {
  const missing = MIN_SPAN_DEGREES - (high - low);
  return missing > 0 ? [low - missing / 2, high + missing / 2] : [low, high];
}

/** [south, north, west, east] of a result, whichever shape it came in. */
function boxOf(result: NominatimResult): [number, number, number, number] | undefined {
  // jsonv2 lists [south, north, west, east] as strings; GeoJSON has bbox [west, south, east, north].
  const [south, north, west, east] = result.boundingbox
    ? result.boundingbox.map(Number)
    : result.bbox
      ? [result.bbox[1], result.bbox[3], result.bbox[0], result.bbox[2]]
      : [];
  if ([south, north, west, east].some((value) => value === undefined || Number.isNaN(value))) return undefined;
  return [south, north, west, east];
}

const displayNameOf = (result: NominatimResult): string | undefined => result.display_name ?? result.properties?.display_name;
const importanceOf = (result: NominatimResult): number | undefined => result.importance ?? result.properties?.importance;
const addressOf = (result: NominatimResult): Record<string, string> => result.address ?? result.properties?.address ?? {};

function areaOf(result: NominatimResult, location: string): GeocodedArea | undefined {
  const box = boxOf(result);
  if (!box) return undefined;
  const [s, n] = widen(box[0], box[1]);
  const [w, e] = widen(box[2], box[3]);
  const address = addressOf(result);
  const polygons = polygonsOf(result.geojson ?? result.geometry)?.filter((polygon) => polygon[0]?.length >= 4);
  const displayName = displayNameOf(result);
  return {
    south: s,
    north: n,
    west: w,
    east: e,
    name: result.name ?? result.properties?.name ?? location.trim(),
    ...(displayName ? { displayName } : {}),
    ...(polygons?.length ? { boundary: 'polygon' as const, polygons } : { boundary: 'bbox' as const }),
    country: address.country_code?.toUpperCase(),
    ...(address.country ? { countryName: address.country } : {}),
    city: address.city ?? address.town ?? address.village ?? address.municipality,
  };
}

/** The place's own name and its country ("Lindenfeld, Germany"), for sentences. */
export const shortNameOf = (area: GeocodedArea): string =>
  (area.countryName && area.countryName !== area.name ? `${area.name}, ${area.countryName}` : area.name);

/** A geocoder result as a user picks it (GET /api/locations). */
export function locationMatchOf(result: NominatimResult, location: string): LocationMatch | undefined {
  const area = areaOf(result, location);
  if (!area) return undefined;
  const box = boxOf(result)!;
  return {
    name: area.displayName ?? area.name,
    short_name: shortNameOf(area),
    country: area.countryName ?? null,
    country_code: area.country ?? null,
    kind: result.addresstype ?? result.properties?.addresstype ?? result.type ?? result.properties?.type ?? 'place',
    boundary: {
      type: area.boundary,
      bbox: [box[2], box[0], box[3], box[1]],
      ...(area.polygons ? { polygons: area.polygons } : {}),
    },
  };
}

const fold = (text: string): string => text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/\s+/g, ' ').trim();

/** A second place this close in importance to the first is as likely what the user meant. */
const AMBIGUOUS_IMPORTANCE_RATIO = 0.75;

/**
 * Which of the geocoder's results a location means: the one whose full name it is (a place picked
 * from the list), else the first, unless a second place with another name is nearly as important
 * (several Neustadts): then it is ambiguous, and undefined.
 */
export function chosenResult(results: NominatimResult[], location: string): NominatimResult | undefined {
  const usable = results.filter((result) => boxOf(result));
  const exact = usable.find((result) => fold(displayNameOf(result) ?? '') === fold(location));
  if (exact) return exact;
  if (isAmbiguous(usable)) return undefined;
  return usable[0];
}

export function isAmbiguous(results: NominatimResult[]): boolean {
  const [first, second] = results.filter((result) => boxOf(result));
  if (!first || !second || displayNameOf(first) === displayNameOf(second)) return false;
  const [a, b] = [importanceOf(first), importanceOf(second)];
  return a !== undefined && b !== undefined && b >= a * AMBIGUOUS_IMPORTANCE_RATIO;
}

/** How many results a search of the geocoder asks for: enough to see an ambiguous name. */
const CANDIDATES = 5;

export interface NominatimSearch {
  /** The boundary simplified to this many degrees (a city's full outline can run to megabytes). */
  polygonThreshold: number;
  signal?: AbortSignal;
}

/** The geocoder's results for a text, best first. */
export async function nominatimResults(fetchJson: FetchJson, nominatimUrl: string, location: string, options: NominatimSearch): Promise<NominatimResult[]> {
  const url = `${nominatimUrl.replace(/\/$/, '')}/search?format=jsonv2&addressdetails=1&limit=${CANDIDATES}&polygon_geojson=1&polygon_threshold=${options.polygonThreshold}&q=${encodeURIComponent(location)}`;
  return resultsOf(await fetchJson(url, { signal: options.signal }));
}

/** Where geocoded areas are kept beyond one process (the scraper's database). */
/** How a location is keyed in the geocode cache: the same text however it was spaced or capitalised. */
export const geocodeKeyOf = (location: string): string => location.trim().toLowerCase();

export interface GeocodeStore {
  /** The area stored for the location key within the last `maxAgeHours`, if any. */
  read(key: string, maxAgeHours: number): Promise<GeocodedArea | undefined>;
  write(key: string, area: GeocodedArea): Promise<void>;
}

export interface GeocodeCache {
  /** How long an answer is reused; 0 asks Nominatim every time. */
  hours: number;
  store?: GeocodeStore;
}

/**
 * Geocodes free-text locations with Nominatim (with the boundary polygon where it has one). The same
 * location text (trimmed, any case) within `cache.hours` reuses the answer: from this process's
 * memory, else from the store (another replica's or an earlier process's answer). A store that
 * fails is passed by: the search asks Nominatim instead.
 */
export function createNominatimGeocoder(fetchJson: FetchJson, nominatimUrl: string, cache: GeocodeCache = { hours: 24 }) {
  const memory = new Map<string, { area: Promise<GeocodedArea>; at: number }>();
  const maxAgeMs = cache.hours * 3600_000;
  const lookUp = async (location: string, ctx: SearchContext): Promise<GeocodedArea> => {
    ctx.takeRequest?.('area');
    // The boundary, simplified to about 50 m.
    const results = await nominatimResults(fetchJson, nominatimUrl, location, { polygonThreshold: 0.0005, signal: ctx.signal });
    const chosen = chosenResult(results, location);
    const area = chosen && areaOf(chosen, location);
    if (area) return area;
    if (results.some((result) => boxOf(result))) {
      const names = results.flatMap((result) => displayNameOf(result) ?? []);
      throw new PlacesFailure('location_ambiguous', `Nominatim knows several places called "${location}"`, names);
    }
    throw new PlacesFailure('location_not_found', `Nominatim found no area for location "${location}"`, await didYouMean(location, ctx));
  };
  /**
   * Places to offer for a location the geocoder does not know: "Lindenfeld, Atlantis" is unknown, but
   * its first part may be a place. Costs one more request, only when the search fails anyway.
   */
  const didYouMean = async (location: string, ctx: SearchContext): Promise<string[]> => {
    const first = location.split(',')[0].trim();
    if (first === location.trim() || first.length < 2 || ctx.takeRequest?.('area') === false) return [];
    const results = await nominatimResults(fetchJson, nominatimUrl, first, { polygonThreshold: 0.01, signal: ctx.signal }).catch(() => []);
    return results.flatMap((result) => (boxOf(result) ? displayNameOf(result) ?? [] : []));
  };
  const reuseOrLookUp = async (key: string, location: string, ctx: SearchContext): Promise<GeocodedArea> => {
    const stored = await cache.store?.read(key, cache.hours).catch(() => undefined);
    if (stored) return stored;
    const area = await lookUp(location, ctx);
    await cache.store?.write(key, area).catch(() => undefined);
    return area;
  };
  return (location: string, ctx: SearchContext = {}): Promise<GeocodedArea> => {
    if (maxAgeMs <= 0) return lookUp(location, ctx);
    const key = geocodeKeyOf(location);
    const kept = memory.get(key);
    if (kept && Date.now() - kept.at < maxAgeMs) return kept.area;
    const area = reuseOrLookUp(key, location, ctx);
    memory.set(key, { area, at: Date.now() });
    area.catch(() => memory.delete(key));
    return area;
  };
}
