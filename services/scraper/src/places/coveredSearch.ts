import { isSupportedCountry, type CountryCode } from 'libphonenumber-js/max';
import { validE164 } from '../extract/phoneNumber.ts';
import { businessKeysOf, matchesNear, nearPointOf, type NearPoint } from '@leadforge/contracts/businessKeys.ts';
import { isInArea } from './areaGeometry.ts';
import type { GeocodedArea } from './nominatimGeocoder.ts';
import { combinedFailureCode, failureCodeOf, PlacesFailure } from './placesFailure.ts';
import type { SearchFailureCode } from '@leadforge/contracts';
import type { Place, PlaceQuery, PlacesSource, PlacesUsageSink, SearchContext, SourceName, SourceReport } from './types.ts';

/** What a search covered, as the contracts' `SearchCoverage` says it. */
export interface Coverage {
  area: { name: string; boundary: 'polygon' | 'bbox'; full_name?: string };
  sources: Partial<Record<SourceName, { requests: number; places: number; error?: string }>>;
  cells_searched: number;
  cells_saturated: number;
  provider_requests: number;
  places_found: number;
  places_outside_area: number;
  duplicates_merged: number;
  /** The whole area was searched by every source and nothing more exists there. */
  exhausted: boolean;
}

export interface CoveredSearchDeps {
  geocode(location: string, ctx: SearchContext): Promise<GeocodedArea>;
  sources: PlacesSource[];
  /** Provider requests one search may send, geocoding included. */
  requestBudget: number;
  /** Counts the search's provider requests, places and failures per provider, beyond the search. */
  usage?: PlacesUsageSink;
}

export interface CoveredSearch {
  /** The businesses of the area, each once, in a fixed order for the same answers. */
  places: AsyncIterable<Place>;
  /** So far; undefined until the area is known. */
  coverage(): Coverage | undefined;
}

function countryOf(place: Place): CountryCode | undefined {
  const code = place.country?.toUpperCase();
  return code && isSupportedCountry(code) ? (code as CountryCode) : undefined;
}

/**
 * The keys under which a place is the same business as another, the ones a user's ownership is
 * checked by: its id first (then those of listings merged into it), its website, its phone (E.164,
 * read in its country), its name where it stands.
 */
export function businessKeysOfPlace(place: Place): string[] {
  const phone = place.phone ? validE164(place.phone, countryOf(place)) : undefined;
  return businessKeysOf({
    placeKey: `${place.source}:${place.placeId}`, mergedKeys: place.mergedKeys, website: place.website, phone, name: place.name, lat: place.lat, lon: place.lon,
  });
}

const nearPointsOf = (keys: string[]): NearPoint[] => keys.flatMap((key) => nearPointOf(key) ?? []);

/** The fields one listing lacks, taken from the other's (a website from one, a phone from the other). */
function fillFrom(target: Place, other: Place): void {
  const fill = <K extends keyof Place>(field: K) => {
    if (target[field] === undefined && other[field] !== undefined) target[field] = other[field];
  };
  for (const field of ['website', 'phone', 'email', 'address', 'city', 'country', 'lat', 'lon'] as const) fill(field);
}

interface Entry {
  place: Place;
  yielded: boolean;
  /** The sources whose listings it merges. */
  sources: Set<SourceName>;
  /** The names and positions of those listings. */
  nearPoints: NearPoint[];
}

interface SourceState {
  source: PlacesSource;
  report: SourceReport;
  stats: { requests: number; places: number; error?: string };
  /** Why it failed, when it did. */
  failure?: SearchFailureCode;
  iterator?: AsyncIterator<Place[]>;
  done: boolean;
}

/**
 * One search over every configured source: the area geocoded once, the sources asked concurrently
 * round by round (each source's next batch), the round merged in the sources' fixed order so the
 * same answers give the same places in the same order. Places outside the area's boundary are
 * dropped and counted; a business found twice (same id, or by two sources with the same
 * registrable website domain, E.164 phone, or normalised name within 100 m) is one, the fields of a
 * listing not yet handed on merged into it. A failing source is reported in the coverage; only all of them failing fails the search.
 */
export function coveredSearch(deps: CoveredSearchDeps, query: PlaceQuery, signal?: AbortSignal): CoveredSearch {
  const states: SourceState[] = deps.sources.map((source) => ({
    source, report: { cellsSearched: 0, cellsSaturated: 0, complete: false }, stats: { requests: 0, places: 0 }, done: false,
  }));
  const byName = new Map(states.map((state) => [state.source.name, state]));
  let area: GeocodedArea | undefined;
  let providerRequests = 0;
  let placesOutside = 0;
  let duplicates = 0;
  let readToEnd = false;
  const entries: Entry[] = [];
  const byKey = new Map<string, Entry>();
  const outsideKeys = new Set<string>();

  const ctx: SearchContext = {
    signal,
    takeRequest(by) {
      if (providerRequests >= deps.requestBudget) return false;
      providerRequests++;
      if (by !== 'area') byName.get(by)!.stats.requests++;
      deps.usage?.providerRequest(by === 'area' ? 'nominatim' : by);
      return true;
    },
  };

  /**
   * The business a listing is: by its id, or by its website, phone or name and position another
   * source's listing. Within one source, distinct ids are distinct businesses (the provider knows
   * its own: two branches of a chain share a domain, two practices a switchboard).
   */
  const sameBusiness = (place: Place, keys: string[]): Entry | undefined => {
    const byId = byKey.get(keys[0]);
    if (byId) return byId;
    const fromAnotherSource = (entry: Entry | undefined) => (entry && !entry.sources.has(place.source) ? entry : undefined);
    for (const key of keys.slice(1)) {
      const point = nearPointOf(key);
      const entry = point
        ? entries.find((candidate) => !candidate.sources.has(place.source) && candidate.nearPoints.some((known) => matchesNear(known, point)))
        : fromAnotherSource(byKey.get(key));
      if (entry) return entry;
    }
    return undefined;
  };

  /** Merges one batch; the places new to the search, in order. */
  const take = (batch: Place[], ready: Entry[]): void => {
    for (const place of batch) {
      const keys = businessKeysOfPlace(place);
      if (place.lat !== undefined && place.lon !== undefined && !isInArea(area!, place.lat, place.lon)) {
        if (!outsideKeys.has(keys[0])) placesOutside++;
        outsideKeys.add(keys[0]);
        continue;
      }
      const entry = sameBusiness(place, keys);
      if (entry) {
        if (byKey.get(keys[0]) !== entry) duplicates++;
        entry.sources.add(place.source);
        entry.nearPoints.push(...nearPointsOf(keys));
        if (!entry.yielded) {
          fillFrom(entry.place, place);
          // Its listing's id too, so that ownership knows the business by every source's id.
          if (place.source !== entry.place.source) entry.place.mergedKeys = [...new Set([...(entry.place.mergedKeys ?? []), `${place.source}:${place.placeId}`])].slice(0, 10);
        }
        for (const key of keys) if (!byKey.has(key)) byKey.set(key, entry);
        continue;
      }
      const fresh: Entry = { place: { ...place }, yielded: false, sources: new Set([place.source]), nearPoints: nearPointsOf(keys) };
      entries.push(fresh);
      ready.push(fresh);
      for (const key of keys) if (!byKey.has(key)) byKey.set(key, fresh);
    }
  };

  const nextBatch = async (state: SourceState): Promise<Place[]> => {
    try {
      const next = await state.iterator!.next();
      if (next.done) {
        state.done = true;
        return [];
      }
      state.stats.places += next.value.length;
      if (next.value.length) deps.usage?.placesReturned(state.source.name, next.value.length);
      return next.value;
    } catch (error) {
      state.done = true;
      if (!signal?.aborted) {
        state.stats.error = (error as Error).message;
        state.failure = failureCodeOf(error);
        deps.usage?.providerFailed(state.source.name);
      }
      return [];
    }
  };

  async function* places(): AsyncGenerator<Place> {
    area = await deps.geocode(query.location, ctx).catch((error: unknown) => {
      if (!signal?.aborted) deps.usage?.providerFailed('nominatim');
      throw error;
    });
    for (const state of states) state.iterator = state.source.searchArea(area, query, ctx, state.report)[Symbol.asyncIterator]();
    try {
      while (states.some((state) => !state.done)) {
        const round = await Promise.all(states.map((state) => (state.done ? [] : nextBatch(state))));
        const failed = states.filter((state) => state.stats.error);
        if (failed.length === states.length) {
          throw new PlacesFailure(combinedFailureCode(failed.map((state) => state.failure ?? 'provider_error')), failed.map((state) => state.stats.error).join('; '));
        }
        const ready: Entry[] = [];
        for (const batch of round) take(batch, ready);
        for (const entry of ready) {
          entry.yielded = true;
          yield entry.place;
        }
      }
      readToEnd = true;
    } finally {
      await Promise.allSettled(states.filter((state) => !state.done).map((state) => state.iterator?.return?.()));
    }
  }

  return {
    places: places(),
    coverage() {
      if (!area) return undefined;
      return {
        area: { name: area.name, boundary: area.boundary, ...(area.displayName ? { full_name: area.displayName } : {}) },
        sources: Object.fromEntries(states.map((state) => [state.source.name, { ...state.stats }])),
        cells_searched: states.reduce((sum, state) => sum + state.report.cellsSearched, 0),
        cells_saturated: states.reduce((sum, state) => sum + state.report.cellsSaturated, 0),
        provider_requests: providerRequests,
        places_found: entries.length,
        places_outside_area: placesOutside,
        duplicates_merged: duplicates,
        exhausted: readToEnd && states.every((state) => state.report.complete && !state.stats.error),
      };
    },
  };
}
