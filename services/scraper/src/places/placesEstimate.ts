import type { LocationEstimateResponse } from '@leadforge/contracts';
import { shortNameOf } from './nominatimGeocoder.ts';
import { nameWordOf, osmTagsOf } from './osmIndustryTags.ts';
import { overpassCountQuery } from './overpassQuery.ts';
import type { FetchJson, GeocodedArea, SearchContext, SourceName } from './types.ts';

export interface PlacesEstimateDeps {
  fetchJson: FetchJson;
  overpassUrl: string;
  sources: SourceName[];
  geocode(location: string, ctx: SearchContext): Promise<GeocodedArea>;
}

/** The total of an Overpass `out count;` answer, or undefined for any other answer. */
function countOf(body: unknown): number | undefined {
  const elements = (body as { elements?: { type?: string; tags?: { total?: string } }[] } | null)?.elements;
  const total = Array.isArray(elements) ? elements.find((element) => element.type === 'count')?.tags?.total : undefined;
  const count = total === undefined ? NaN : Number(total);
  return Number.isInteger(count) && count >= 0 ? count : undefined;
}

/**
 * How many businesses of an industry exist in a place, when a source can say it cheaply: Overpass
 * counts the OpenStreetMap search's own selection in one request (`out count;`). Null when no source
 * can (OpenStreetMap not among PLACES_SOURCES) or the place or the count cannot be had: the estimate
 * is a hint before paying, never a reason to fail.
 */
export function createPlacesEstimate(deps: PlacesEstimateDeps) {
  return async (location: string, industry: string, signal?: AbortSignal): Promise<LocationEstimateResponse['estimate']> => {
    if (!deps.sources.includes('osm')) return null;
    try {
      const area = await deps.geocode(location, { signal });
      const body = await deps.fetchJson(`${deps.overpassUrl.replace(/\/$/, '')}/api/interpreter`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `data=${encodeURIComponent(overpassCountQuery(area, osmTagsOf(industry), nameWordOf(industry)))}`,
        signal,
      });
      const count = countOf(body);
      if (count === undefined) return null;
      return { count, industry: industry.trim(), location: area.displayName ?? area.name, short_name: shortNameOf(area), source: 'osm' };
    } catch {
      return null;
    }
  };
}
