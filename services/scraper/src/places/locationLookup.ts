import type { LocationsResponse } from '@leadforge/contracts';
import { isAmbiguous, locationMatchOf, nominatimResults } from './nominatimGeocoder.ts';
import type { FetchJson } from './types.ts';

export interface LocationLookupOptions {
  fetchJson: FetchJson;
  nominatimUrl: string;
  /** How long an answer is reused: a type-ahead asks again as the user types back and forth. */
  cacheMs: number;
  /** Answers kept at most; the oldest goes first. */
  maxCached?: number;
}

/**
 * The places a typed location may mean (GET /api/locations), from the geocoder the searches use, with
 * coarse outlines (a type-ahead shows a list, not a map). The same text (any case or spacing) within
 * `cacheMs` is answered from memory; a failed look-up is not kept.
 */
export function createLocationLookup(options: LocationLookupOptions) {
  const cache = new Map<string, { answer: Promise<LocationsResponse>; at: number }>();
  const maxCached = options.maxCached ?? 500;
  return (q: string, signal?: AbortSignal): Promise<LocationsResponse> => {
    const key = q.trim().toLowerCase().replace(/\s+/g, ' ');
    const kept = cache.get(key);
    if (kept && Date.now() - kept.at < options.cacheMs) return kept.answer;
    const answer = nominatimResults(options.fetchJson, options.nominatimUrl, q.trim(), { polygonThreshold: 0.01, signal }).then((results) => ({
      locations: results.flatMap((result) => locationMatchOf(result, q) ?? []),
      ambiguous: isAmbiguous(results),
    }));
    cache.delete(key);
    cache.set(key, { answer, at: Date.now() });
    if (cache.size > maxCached) cache.delete(cache.keys().next().value!);
    answer.catch(() => cache.delete(key));
    return answer;
  };
}
