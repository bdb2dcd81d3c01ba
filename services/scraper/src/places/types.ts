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
  /** The place keys (`<source>:<id>`) of other sources' listings merged into this one. */
  mergedKeys?: string[];
}

export type SourceName = Place['source'];

/** Who a provider request of a search is for: a places source, or Nominatim geocoding the area. */
export type ProviderName = SourceName | 'nominatim';

/** Where a search's provider usage is counted (the usage recorder), per provider. */
export interface PlacesUsageSink {
  /** One provider request the search's budget allowed. */
  providerRequest(provider: ProviderName): void;
  /** Places a source's answers held (before the area check and merging). */
  placesReturned(provider: ProviderName, count: number): void;
  /** The provider failed the search's use of it (the error its coverage reports); not counted when the search was stopped. */
  providerFailed(provider: ProviderName): void;
}

export interface PlaceQuery {
  industry: string;
  location: string;
  /** Places wanted: a source that answers in one piece asks its provider for this many. */
  limit: number;
}

export interface SearchContext {
  signal?: AbortSignal;
  /**
   * Called before each provider request of the search (`area`: geocoding); false when the search's
   * request budget is spent, and the source then stops where it is.
   */
  takeRequest?: (by: SourceName | 'area') => boolean;
}

/** What a source says of its own search of the area, read when it has ended or been stopped. */
export interface SourceReport {
  cellsSearched: number;
  cellsSaturated: number;
  /** Every place the provider has in the area was asked for (no saturated cell left, no cut-off). */
  complete: boolean;
}

export interface PlacesSource {
  name: SourceName;
  /** The places of the area, batch after batch; the report is filled in as it goes. */
  searchArea(area: GeocodedArea, query: PlaceQuery, ctx: SearchContext, report: SourceReport): AsyncIterable<Place[]>;
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

/** [longitude, latitude], as GeoJSON has it. */
export type Position = [number, number];

/** A geocoded search location: the area to search and what it tells about places in it. */
export interface GeocodedArea {
  south: number;
  west: number;
  north: number;
  east: number;
  /** What Nominatim calls it ("Würzburg"), or the location as typed. */
  name: string;
  /** Nominatim's full name of it ("Würzburg, Bayern, Deutschland"). */
  displayName?: string;
  /** The area is the boundary polygon Nominatim gave, or (a point, a street) its bounding box. */
  boundary: 'polygon' | 'bbox';
  /** With a polygon boundary: its polygons (GeoJSON MultiPolygon coordinates: rings of positions, the first the outer one). */
  polygons?: Position[][][];
  /** ISO 3166 alpha-2, upper case. */
  country?: string;
  /** The country's name, as Nominatim gives it. */
  countryName?: string;
  city?: string;
}
