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
  address?: Record<string, string>;
  /** jsonv2 with polygon_geojson=1. */
  geojson?: GeoJsonGeometry;
  /** format=geojson: the feature's geometry. */
  geometry?: GeoJsonGeometry;
  properties?: { name?: string; address?: Record<string, string> };
}

/** The polygons of a Polygon or MultiPolygon geometry; undefined for a point or a line (the bbox is the area then). */
function polygonsOf(geometry: GeoJsonGeometry | undefined): Position[][][] | undefined {
  if (geometry?.type === 'Polygon') return [geometry.coordinates as Position[][]];
  if (geometry?.type === 'MultiPolygon') return geometry.coordinates as Position[][][];
  return undefined;
}

function firstResult(body: unknown): NominatimResult | undefined {
  if (Array.isArray(body)) return body[0] as NominatimResult | undefined;
  const features = (body as { features?: NominatimResult[] } | null)?.features;
  return Array.isArray(features) ? features[0] : undefined;
}

function widen(low: number, high: number): [number, number] {
  const missing = MIN_SPAN_DEGREES - (high - low);
  return missing > 0 ? [low - missing / 2, high + missing / 2] : [low, high];
}

function areaOf(result: NominatimResult, location: string): GeocodedArea | undefined {
  // jsonv2 lists [south, north, west, east] as strings; GeoJSON has bbox [west, south, east, north].
  const [south, north, west, east] = result.boundingbox
    ? result.boundingbox.map(Number)
    : result.bbox
      ? [result.bbox[1], result.bbox[3], result.bbox[0], result.bbox[2]]
      : [];
  if ([south, north, west, east].some((value) => value === undefined || Number.isNaN(value))) return undefined;
  const [s, n] = widen(south, north);
  const [w, e] = widen(west, east);
  const address = result.address ?? result.properties?.address ?? {};
  const polygons = polygonsOf(result.geojson ?? result.geometry)?.filter((polygon) => polygon[0]?.length >= 4);
  return {
    south: s,
    north: n,
    west: w,
    east: e,
    name: result.name ?? result.properties?.name ?? location.trim(),
    ...(polygons?.length ? { boundary: 'polygon' as const, polygons } : { boundary: 'bbox' as const }),
    country: address.country_code?.toUpperCase(),
    city: address.city ?? address.town ?? address.village ?? address.municipality,
  };
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
    // The boundary, simplified to about 50 m (a city's full outline can run to megabytes).
    const url = `${nominatimUrl.replace(/\/$/, '')}/search?format=jsonv2&addressdetails=1&limit=1&polygon_geojson=1&polygon_threshold=0.0005&q=${encodeURIComponent(location)}`;
    ctx.takeRequest?.('area');
    const result = firstResult(await fetchJson(url, { signal: ctx.signal }));
    const area = result && areaOf(result, location);
    if (!area) throw new Error(`Nominatim found no area for location "${location}"`);
    return area;
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
