export type { FetchJson, JsonRequestInit, Place, PlaceQuery, PlacesSource, SearchContext } from './types.ts';
export { createOsmPlacesSource, type OsmSourceConfig } from './osmPlacesSource.ts';
export { createGooglePlacesSource, type GoogleSourceConfig } from './googlePlacesSource.ts';
export { createDecodoPlacesSource, type DecodoSourceConfig } from './decodoPlacesSource.ts';
