/** A business found by a places source, before its website is crawled. */
export interface Place {
  /** Unique within its source: OSM "node/123", a Google place id, a Google Maps id from Decodo. */
  placeId: string;
  source: 'osm' | 'google' | 'decodo';
  name: string;
  website?: string;
  phone?: string;
  email?: string;
  address?: string;
  city?: string;
  /** ISO 3166 alpha-2, upper case. */
  country?: string;
  lat?: number;
  lon?: number;
  categories?: string[];
}

export interface PlaceQuery {
  industry: string;
  location: string;
  limit: number;
}

export interface SearchContext {
  signal?: AbortSignal;
}

export interface PlacesSource {
  search(query: PlaceQuery, ctx: SearchContext): AsyncIterable<Place>;
}

export interface JsonRequestInit {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

/**
 * The outbound HTTP client as the places sources see it: resolves to the parsed JSON body, or to
 * the body text when it is not JSON (Overpass answers errors with an HTML page), whatever the
 * status, so that the source can report the provider's own error message; rejects only when no
 * response arrived.
 */
export type FetchJson = (url: string, init?: JsonRequestInit) => Promise<unknown>;
