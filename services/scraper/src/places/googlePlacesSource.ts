import { cellTouchesArea, quartersOf, type Cell } from './areaGeometry.ts';
import type { FetchJson, Place, PlacesSource } from './types.ts';

export interface GoogleSourceConfig {
  fetchJson: FetchJson;
  apiBase: string;
  apiKey: string;
}

// Fields are billed by SKU; these are the ones a lead needs.
const FIELD_MASK = [
  'places.id', 'places.displayName', 'places.formattedAddress', 'places.shortFormattedAddress',
  'places.websiteUri', 'places.nationalPhoneNumber', 'places.internationalPhoneNumber',
  'places.addressComponents', 'places.location', 'places.types', 'nextPageToken',
].join(',');

const MAX_PAGE_SIZE = 20;

interface GooglePlace {
  id: string;
  displayName?: { text?: string };
  formattedAddress?: string;
  shortFormattedAddress?: string;
  websiteUri?: string;
  nationalPhoneNumber?: string;
  internationalPhoneNumber?: string;
  addressComponents?: { longText?: string; shortText?: string; types?: string[] }[];
  location?: { latitude?: number; longitude?: number };
  types?: string[];
}

interface SearchTextAnswer {
  places?: GooglePlace[];
  nextPageToken?: string;
  error?: { code?: number; status?: string; message?: string };
}

function component(place: GooglePlace, type: string, form: 'longText' | 'shortText'): string | undefined {
  return place.addressComponents?.find((part) => part.types?.includes(type))?.[form];
}

function googlePlaceToPlace(place: GooglePlace): Place | undefined {
  const name = place.displayName?.text;
  if (!place.id || !name) return undefined;
  return {
    placeId: place.id,
    source: 'google',
    name,
    website: place.websiteUri,
    phone: place.internationalPhoneNumber ?? place.nationalPhoneNumber,
    address: place.formattedAddress ?? place.shortFormattedAddress,
    city: component(place, 'locality', 'longText') ?? component(place, 'postal_town', 'longText'),
    country: component(place, 'country', 'shortText'),
    lat: place.location?.latitude,
    lon: place.location?.longitude,
    categories: place.types,
  };
}

/** Google answers at most this many places for one query (three pages of 20), however many there are. */
export const GOOGLE_QUERY_CAP = 60;

/**
 * Google Places API (New) Text Search over the area in cells (`locationRestriction.rectangle`):
 * the area's bounding box first, and a cell that saturates (answers the cap: there may be more) is
 * split into four, nearest the centre first, breadth first, so the same search asks the same cells
 * in the same order. Cells outside the boundary are skipped. One batch per cell; it stops when the
 * reader has enough (it reads no further), the request budget is spent, or no saturated cell is left.
 */
export function createGooglePlacesSource(config: GoogleSourceConfig): PlacesSource {
  const url = `${config.apiBase.replace(/\/$/, '')}/v1/places:searchText`;
  return {
    name: 'google',
    async *searchArea(area, query, ctx, report) {
      const queue: Cell[] = [{ south: area.south, west: area.west, north: area.north, east: area.east }];
      report.complete = false;
      while (queue.length) {
        const cell = queue.shift()!;
        if (!cellTouchesArea(area, cell)) continue;
        const places: Place[] = [];
        let pageToken: string | undefined;
        do {
          if (ctx.takeRequest?.('google') === false) {
            if (places.length) yield places;
            return;
          }
          const answer = (await config.fetchJson(url, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'X-Goog-Api-Key': config.apiKey,
              'X-Goog-FieldMask': FIELD_MASK,
            },
            body: JSON.stringify({
              textQuery: query.industry,
              pageSize: MAX_PAGE_SIZE,
              locationRestriction: { rectangle: { low: { latitude: cell.south, longitude: cell.west }, high: { latitude: cell.north, longitude: cell.east } } },
              ...(pageToken ? { pageToken } : {}),
            }),
            signal: ctx.signal,
          })) as SearchTextAnswer | string;
          if (typeof answer === 'string' || answer.error) {
            const detail = typeof answer === 'string' ? answer.slice(0, 200) : `${answer.error?.status ?? ''} ${answer.error?.message ?? ''}`;
            throw new Error(`Google Places API error: ${detail.trim()}`);
          }
          places.push(...(answer.places ?? []).flatMap((place) => googlePlaceToPlace(place) ?? []));
          pageToken = answer.nextPageToken;
        } while (pageToken && places.length < GOOGLE_QUERY_CAP);
        report.cellsSearched++;
        if (places.length >= GOOGLE_QUERY_CAP) {
          report.cellsSaturated++;
          queue.push(...quartersOf(cell, area));
        }
        yield places;
      }
      report.complete = true;
    },
  };
}
