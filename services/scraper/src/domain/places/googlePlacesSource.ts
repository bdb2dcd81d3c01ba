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

/** Google Places API (New) Text Search, following nextPageToken until the limit. */
export function createGooglePlacesSource(config: GoogleSourceConfig): PlacesSource {
  const url = `${config.apiBase.replace(/\/$/, '')}/v1/places:searchText`;
  return {
    async *search(query, ctx) {
      let delivered = 0;
      let pageToken: string | undefined;
      do {
        const answer = (await config.fetchJson(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'X-Goog-Api-Key': config.apiKey,
            'X-Goog-FieldMask': FIELD_MASK,
          },
          body: JSON.stringify({
            textQuery: `${query.industry} in ${query.location}`,
            pageSize: Math.min(MAX_PAGE_SIZE, query.limit - delivered),
            ...(pageToken ? { pageToken } : {}),
          }),
          signal: ctx.signal,
        })) as SearchTextAnswer | string;
        if (typeof answer === 'string' || answer.error) {
          const detail = typeof answer === 'string' ? answer.slice(0, 200) : `${answer.error?.status ?? ''} ${answer.error?.message ?? ''}`;
          throw new Error(`Google Places API error: ${detail.trim()}`);
        }
        for (const place of answer.places ?? []) {
          const mapped = googlePlaceToPlace(place);
          if (!mapped) continue;
          yield mapped;
          delivered += 1;
          if (delivered >= query.limit) return;
        }
        pageToken = answer.nextPageToken;
      } while (pageToken);
    },
  };
}
