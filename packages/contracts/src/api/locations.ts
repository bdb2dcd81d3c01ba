import { Type, type Static } from 'typebox';
import { declareRoutes, errorReplies } from '../routeDeclaration.ts';

/**
 * Why a search failed, for a program to act on (the words are in `error` / `detail`): the location is
 * no place the geocoder knows, or names several; the directory could not be reached or refused for
 * its quota; no places source is configured with what it needs; or the directory answered with an
 * error of its own. A search failing with any of them is never charged.
 */
export const SearchFailureCode = Type.Union([
  Type.Literal('location_not_found'), Type.Literal('location_ambiguous'), Type.Literal('provider_unreachable'),
  Type.Literal('provider_quota_exhausted'), Type.Literal('no_source_configured'), Type.Literal('provider_error'),
]);
export type SearchFailureCode = Static<typeof SearchFailureCode>;

/**
 * [west, south, east, north], in degrees. Four numbers as an array schema: a tuple's array-form
 * `items` is not a schema OpenAPI 3.1 accepts.
 */
export const BoundingBox = Type.Unsafe<[number, number, number, number]>(Type.Array(Type.Number(), { minItems: 4, maxItems: 4 }));

/** A place the geocoder (Nominatim) knows, as a user picks it: its full name, country, kind and boundary. */
export const LocationMatch = Type.Object({
  /** The geocoder's full display name ("Lindenfeld, Landkreis Bergstraße, Hessen, Germany"): searching this finds this place. */
  name: Type.String(),
  /** The place's own name and its country ("Lindenfeld, Germany"), for sentences. */
  short_name: Type.String(),
  country: Type.Union([Type.String(), Type.Null()]),
  /** ISO 3166 alpha-2, upper case. */
  country_code: Type.Union([Type.String(), Type.Null()]),
  /** What it is: city, town, village, suburb, county, state, country, ... (Nominatim's addresstype). */
  kind: Type.String(),
  boundary: Type.Object({
    /** A polygon when the geocoder has the place's outline, else its bounding box. */
    type: Type.Union([Type.Literal('polygon'), Type.Literal('bbox')]),
    bbox: BoundingBox,
    /** GeoJSON MultiPolygon coordinates, simplified (polygon only). */
    polygons: Type.Optional(Type.Array(Type.Array(Type.Array(Type.Array(Type.Number()))))),
  }),
});
export type LocationMatch = Static<typeof LocationMatch>;

const Q_RULE = 'q must be 2 to 200 characters of a place name';
export const LocationsQuery = Type.Object({
  q: Type.String({ minLength: 2, maxLength: 200, pattern: '\\S', errorMessage: { type: Q_RULE, minLength: Q_RULE, maxLength: Q_RULE, pattern: Q_RULE } }),
}, { additionalProperties: false, errorMessage: { required: Q_RULE } });
export type LocationsQuery = Static<typeof LocationsQuery>;

export const LocationsResponse = Type.Object({
  locations: Type.Array(LocationMatch),
  /** A search of `q` as typed would fail as location_ambiguous: the user should pick one of these. */
  ambiguous: Type.Boolean(),
});
export type LocationsResponse = Static<typeof LocationsResponse>;

const ESTIMATE_RULE = 'location and industry are required (at most 200 and 100 characters)';
export const LocationEstimateQuery = Type.Object({
  location: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', errorMessage: ESTIMATE_RULE }),
  industry: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', errorMessage: ESTIMATE_RULE }),
}, { additionalProperties: false, errorMessage: { required: ESTIMATE_RULE } });
export type LocationEstimateQuery = Static<typeof LocationEstimateQuery>;

export const LocationEstimateResponse = Type.Object({
  /** Null when no source can say it cheaply (no OpenStreetMap source, or it could not count). */
  estimate: Type.Union([Type.Object({
    /** Businesses of the industry the source has in the place: an estimate, not a promise of leads. */
    count: Type.Integer({ minimum: 0 }),
    industry: Type.String(),
    /** The place counted: the geocoder's full name, and its own name with its country. */
    location: Type.String(),
    short_name: Type.String(),
    source: Type.Literal('osm'),
  }), Type.Null()]),
});
export type LocationEstimateResponse = Static<typeof LocationEstimateResponse>;

/** Whether the configured places providers answered when the engine started (GET /api/places-status). */
export const PlacesStatusResponse = Type.Object({
  reachable: Type.Boolean(),
  /** Each provider the engine uses (the geocoder and PLACES_SOURCES), and what went wrong with one that did not answer. */
  providers: Type.Array(Type.Object({ name: Type.String(), reachable: Type.Boolean(), detail: Type.Optional(Type.String()) })),
  /** Null while the first check runs. */
  checked_at: Type.Union([Type.String(), Type.Null()]),
});
export type PlacesStatusResponse = Static<typeof PlacesStatusResponse>;

/** Locations a user picks from before paying, the estimate of what exists there, and whether the directory can be reached. */
export const LOCATION_ROUTES = declareRoutes('scraper', {
  search: { method: 'GET', path: '/api/locations', access: 'user', schema: { querystring: LocationsQuery, response: { 200: LocationsResponse, ...errorReplies(400, 401, 429, 502, 503) } } },
  estimate: { method: 'GET', path: '/api/locations/estimate', access: 'user', schema: { querystring: LocationEstimateQuery, response: { 200: LocationEstimateResponse, ...errorReplies(400, 401, 429) } } },
  placesStatus: { method: 'GET', path: '/api/places-status', access: 'user', schema: { response: { 200: PlacesStatusResponse, ...errorReplies(401) } } },
});
