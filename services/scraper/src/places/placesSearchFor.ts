import type { ScraperConfig } from '../config.ts';
import { createDecodoPlacesSource, createGooglePlacesSource, createOsmPlacesSource, type FetchJson, type PlacesSource } from '../domain/places/index.ts';

/** A source that cannot search: its searches finish as "source failed" with the reason. */
function unavailableSource(reason: string): PlacesSource {
  return {
    // eslint-disable-next-line require-yield -- it fails where a real source's search fails: at the first next()
    async *search() {
      throw new Error(reason);
    },
  };
}

/** The places source PLACES_SOURCE names, over the one outbound client. */
export function placesSourceFor(config: ScraperConfig, fetchJson: FetchJson): PlacesSource {
  switch (config.placesSource) {
    case 'google':
      return config.googlePlacesApiKey
        ? createGooglePlacesSource({ fetchJson, apiBase: config.googlePlacesApiBase, apiKey: config.googlePlacesApiKey })
        : unavailableSource('PLACES_SOURCE=google needs GOOGLE_PLACES_API_KEY');
    case 'decodo':
      return config.decodoScraperToken
        ? createDecodoPlacesSource({ fetchJson, apiBase: config.decodoScraperApiBase, token: config.decodoScraperToken })
        : unavailableSource('PLACES_SOURCE=decodo needs DECODO_SCRAPER_TOKEN');
    default:
      return createOsmPlacesSource({ fetchJson, nominatimUrl: config.nominatimUrl, overpassUrl: config.overpassUrl });
  }
}
