import type { Logger } from 'pino';
import { Gauge } from 'prom-client';
import type { Db } from '@leadforge/kit/db';
import { metric } from '../metrics.ts';
import type { ProxyQuota } from '../outbound/proxyQuota.ts';
import { countOpenJobs } from '../search/jobStore.ts';
import { readTopDomains } from './usageStats.ts';

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
