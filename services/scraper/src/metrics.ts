import { Counter, Gauge, Histogram, register, type Metric } from 'prom-client';

// Process-wide metrics: every service of a local stack shares one process, so get-or-create.
export function metric<T extends Metric>(name: string, make: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? make();
}

export const outboundRequests = metric('leadforge_scraper_outbound_requests_total', () => new Counter({
  name: 'leadforge_scraper_outbound_requests_total',
  help: 'Outbound requests of the scraper by outcome (success: an answer below 500, not 429, with an acceptable body) and route (proxy or direct).',
  labelNames: ['outcome', 'route'] as const,
}));

export const outboundBytes = metric('leadforge_scraper_outbound_response_bytes_total', () => new Counter({
  name: 'leadforge_scraper_outbound_response_bytes_total',
  help: 'Response body bytes the scraper received, by route.',
  labelNames: ['route'] as const,
}));

export const outboundDuration = metric('leadforge_scraper_outbound_duration_seconds', () => new Histogram({
  name: 'leadforge_scraper_outbound_duration_seconds',
  help: 'Time from sending an outbound request to the end of its response, by route.',
  labelNames: ['route'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
}));

export const proxyQuotaRemaining = metric('leadforge_scraper_proxy_quota_remaining', () => new Gauge({
  name: 'leadforge_scraper_proxy_quota_remaining',
  help: 'Proxied requests left in the shared quota, as this replica last saw it.',
}));

export const searchesFinished = metric('leadforge_scraper_searches_finished_total', () => new Counter({
  name: 'leadforge_scraper_searches_finished_total',
  help: 'Searches the scraper finished, by reason (done, quota_exhausted, deadline, cancelled, source_failed).',
  labelNames: ['reason'] as const,
}));

export const leadsDelivered = metric('leadforge_scraper_leads_delivered_total', () => new Counter({
  name: 'leadforge_scraper_leads_delivered_total',
  help: 'Leads with at least one contact route sent back to the leads service.',
}));

export const placesEnriched = metric('leadforge_scraper_places_processed_total', () => new Counter({
  name: 'leadforge_scraper_places_processed_total',
  help: 'Places the scraper processed, by outcome (lead, no_contact, duplicate, failed).',
  labelNames: ['outcome'] as const,
}));

export const pagesGivenUp = metric('leadforge_scraper_pages_given_up_total', () => new Counter({
  name: 'leadforge_scraper_pages_given_up_total',
  help: 'Fetched pages the scraper gave up reading, by reason (too_deep: nested past the bound; timeout: over the time budget; failed: the worker failed).',
  labelNames: ['reason'] as const,
}));

export const providerRequests = metric('leadforge_scraper_provider_requests_total', () => new Counter({
  name: 'leadforge_scraper_provider_requests_total',
  help: 'Provider requests of searches within their budget (SCRAPER_PROVIDER_REQUESTS_PER_SEARCH), by source (nominatim: geocoding; osm, google, decodo).',
  labelNames: ['source'] as const,
}));

export const providerPlaces = metric('leadforge_scraper_provider_places_total', () => new Counter({
  name: 'leadforge_scraper_provider_places_total',
  help: 'Places the places sources returned to searches (before the area check and merging), by source.',
  labelNames: ['source'] as const,
}));

export const providerErrors = metric('leadforge_scraper_provider_errors_total', () => new Counter({
  name: 'leadforge_scraper_provider_errors_total',
  help: 'Searches a provider failed (the error the search\'s coverage reports), by source.',
  labelNames: ['source'] as const,
}));

/**
 * Every configured source's provider series from the start, at 0: a rate over a series that does not
 * exist yet is no data, and a dashboard panel of errors would stay empty until the first error.
 */
export function showProviderSeries(sources: readonly string[]): void {
  for (const source of sources) {
    providerRequests.inc({ source }, 0);
    providerPlaces.inc({ source }, 0);
    providerErrors.inc({ source }, 0);
  }
}
