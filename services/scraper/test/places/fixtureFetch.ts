import fs from 'node:fs';
import type { GeocodedArea } from '../../src/places/nominatimGeocoder.ts';
import type { FetchJson, JsonRequestInit, Place, PlaceQuery, PlacesSource, SourceReport } from '../../src/places/types.ts';
import { fixturePath } from '../fixturePaths.ts';

/** A fixture under `test/fixtures/` as the real client would see it: parsed JSON, or the text. */
export function readFixture(...parts: string[]): unknown {
  const text = fs.readFileSync(fixturePath(...parts), 'utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export interface RecordedRequest {
  url: string;
  init: JsonRequestInit | undefined;
}

/**
 * A fetchJson that answers each request with the next body of the first route whose URL prefix
 * matches (the last body repeats), as the real client would: parsed JSON, or text for non-JSON.
 */
export function fixtureFetch(routes: Record<string, unknown[]>) {
  const requests: RecordedRequest[] = [];
  const served = new Map<string, number>();
  const fetchJson: FetchJson = async (url, init) => {
    requests.push({ url, init });
    const prefix = Object.keys(routes).find((candidate) => url.startsWith(candidate));
    if (!prefix) throw new Error(`no fixture for ${url}`);
    const bodies = routes[prefix];
    const index = served.get(prefix) ?? 0;
    served.set(prefix, index + 1);
    return structuredClone(bodies[Math.min(index, bodies.length - 1)]);
  };
  return { fetchJson, requests };
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** An area that holds every place (no boundary to drop anything). */
export const ANYWHERE: GeocodedArea = { south: -90, west: -180, north: 90, east: 180, name: 'anywhere', boundary: 'bbox' };

/** Every place one source answers for the area, its batches run together, and its report. */
export async function placesOf(source: PlacesSource, query: PlaceQuery, area: GeocodedArea = ANYWHERE): Promise<Place[] & { report: SourceReport }> {
  const report: SourceReport = { cellsSearched: 0, cellsSaturated: 0, complete: false };
  const places = (await collect(source.searchArea(area, query, {}, report))).flat();
  return Object.assign(places, { report });
}
