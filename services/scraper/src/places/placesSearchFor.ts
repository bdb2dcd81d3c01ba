import type { ScraperConfig } from '../config.ts';
import { createDecodoPlacesSource, createGooglePlacesSource, createOsmPlacesSource, type FetchJson, type PlacesSource } from './index.ts';
import { coveredSearch, type CoveredSearch } from './coveredSearch.ts';
import { createNominatimGeocoder, type GeocodeStore } from './nominatimGeocoder.ts';
import type { PlaceQuery, PlacesUsageSink, SourceName } from './types.ts';
import { showProviderSeries } from '../metrics.ts';
import { PlacesFailure } from './placesFailure.ts';

/** A source that cannot search: it fails at its first batch with the reason, which the search's coverage reports. */
function unavailableSource(name: SourceName, reason: string): PlacesSource {
  return {
    name,
    // eslint-disable-next-line require-yield -- it fails where a real source's search fails: at the first next()
    async *searchArea() {
      throw new PlacesFailure('no_source_configured', reason);
    },
  };
}

function sourceFor(name: SourceName, config: ScraperConfig, fetchJson: FetchJson): PlacesSource {
  switch (name) {
    case 'google':
      return config.googlePlacesApiKey
        ? createGooglePlacesSource({ fetchJson, apiBase: config.googlePlacesApiBase, apiKey: config.googlePlacesApiKey })
        : unavailableSource('google', missingCredentials('google', config)!);
    case 'decodo':
      return config.decodoScraperToken
        ? createDecodoPlacesSource({ fetchJson, apiBase: config.decodoScraperApiBase, token: config.decodoScraperToken })
        : unavailableSource('decodo', missingCredentials('decodo', config)!);
    default:
      return createOsmPlacesSource({ fetchJson, overpassUrl: config.overpassUrl });
  }
}

/** Starts one search over the configured sources (PLACES_SOURCES), over the one outbound client. */
export type PlacesSearch = (query: PlaceQuery, signal?: AbortSignal) => CoveredSearch;

/** Why a source cannot search as configured (its credentials missing), or undefined when it can. */
function missingCredentials(name: SourceName, config: ScraperConfig): string | undefined {
  if (name === 'google' && !config.googlePlacesApiKey) return 'the google source needs GOOGLE_PLACES_API_KEY';
  if (name === 'decodo' && !config.decodoScraperToken) return 'the decodo source needs DECODO_SCRAPER_TOKEN';
  return undefined;
}

export function placesSearchFor(config: ScraperConfig, fetchJson: FetchJson, geocodes?: GeocodeStore, usage?: PlacesUsageSink): PlacesSearch {
  const geocode = createNominatimGeocoder(fetchJson, config.nominatimUrl, { hours: config.geocodeCacheHours, store: geocodes });
  const sources = config.placesSources.map((name) => sourceFor(name, config, fetchJson));
  showProviderSeries(['nominatim', ...config.placesSources]);
  const missing = config.placesSources.flatMap((name) => missingCredentials(name, config) ?? []);
  // No source can search: the search fails at once, without geocoding its location for nothing.
  if (missing.length === config.placesSources.length) {
    return () => ({
      // eslint-disable-next-line require-yield -- it fails where a search fails: at the first next()
      places: (async function* () { throw new PlacesFailure('no_source_configured', missing.join('; ')); })(),
      coverage: () => undefined,
    });
  }
  return (query, signal) => coveredSearch({ geocode, sources, requestBudget: config.providerRequestsPerSearch, usage }, query, signal);
}
