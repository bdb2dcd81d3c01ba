import type { Logger } from 'pino';
import { Counter, Gauge, Histogram, register, type Metric } from 'prom-client';
import type { Db } from '@leadforge/kit';
import { countOpenJobs } from '../jobs/jobStore.ts';
import type { ProxyQuota } from '../quota/proxyQuota.ts';
import { readTopDomains } from './usageStats.ts';

// Process-wide metrics: every service of a local stack shares one process, so get-or-create.
function metric<T extends Metric>(name: string, make: () => T): T {
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

/** What the gauges read at scrape time: state shared by every replica, so each reports the same figures. */
export interface ScrapeTimeSources {
  db: Db;
  quota: ProxyQuota;
  log: Logger;
}

// The scraper runtime started last in this process reports (a pod runs one; tests may run several).
const sources: ScrapeTimeSources[] = [];

/** The scrape-time gauges read these until the returned function is called (at the runtime's stop). */
export function reportAtScrape(source: ScrapeTimeSources): () => void {
  sources.push(source);
  return () => {
    const at = sources.indexOf(source);
    if (at >= 0) sources.splice(at, 1);
  };
}

/** A gauge that `read` refreshes whenever Prometheus scrapes; a failed read keeps its last values, so /metrics still answers. */
function scrapeTimeGauge<L extends string>(name: string, help: string, labelNames: readonly L[], read: (gauge: Gauge<L>, source: ScrapeTimeSources) => Promise<void>): Gauge<L> {
  return metric(name, () => new Gauge<L>({
    name,
    help,
    labelNames,
    async collect() {
      const source = sources.at(-1);
      if (source) await read(this, source).catch((err) => source.log.debug({ err, metric: name }, 'could not read a metric at scrape time'));
    },
  }));
}

export const proxyQuotaLimit = scrapeTimeGauge('leadforge_scraper_proxy_quota_limit',
  'The proxy quota an admin last set (the default until then): what the remaining count started from.', [],
  async (gauge, { quota }) => gauge.set(await quota.limit()));

export const jobsOpen = scrapeTimeGauge('leadforge_scraper_jobs_open',
  'Search jobs not finished, by state: queued (waiting for a replica) or running (claimed).', ['state'],
  async (gauge, { db }) => {
    for (const [state, jobs] of Object.entries(await countOpenJobs(db))) gauge.set({ state }, jobs);
  });

// A label per domain would be unbounded: only the top 10 (at most 10 series), at the cost of a domain's history breaking when its rank changes.
export const topDomainRequests = scrapeTimeGauge('leadforge_scraper_top_domain_requests',
  'Requests to each of the 10 most requested domains since the last usage reset (rank 1: the most).', ['rank', 'domain'],
  async (gauge, { db }) => {
    const top = await readTopDomains(db);
    gauge.reset();
    top.forEach(({ domain, requests }, i) => gauge.set({ rank: String(i + 1), domain }, requests));
  });

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
