import crypto from 'node:crypto';
import { DEFAULT_PROXY_QUOTA } from '@leadforge/contracts';
import type { ServiceContext } from '@leadforge/kit/service';
import type { ScraperConfig } from './config.ts';
import { deliverableBy, mailResolverFor, type MailResolver } from './verdicts/dnsMailDomainCheck.ts';
import { createSiteEnricher } from './crawl/siteEnrichment.ts';
import { JobWorker } from './search/jobWorker.ts';
import { SearchRun } from './search/searchRun.ts';
import type { ConnectRoute } from '@leadforge/kit/outbound';
import type { HostLookup } from '@leadforge/kit/outbound';
import { configuredEmailVerifier } from './verdicts/configuredEmailVerifier.ts';
import { OutboundClient } from './outbound/outboundClient.ts';
import { acquireParsePool } from './crawl/parsePool.ts';
import { parseConfigOf } from './crawl/parseConfig.ts';
import { createPageReader, type PageReader } from './crawl/pageReader.ts';
import { placesSearchFor } from './places/placesSearchFor.ts';
import { geocodeStoreOf } from './places/geocodeStore.ts';
import { createNominatimGeocoder } from './places/nominatimGeocoder.ts';
import { createLocationLookup } from './places/locationLookup.ts';
import { createPlacesEstimate } from './places/placesEstimate.ts';
import { checkProviders, type ProviderProbe } from './places/providerReachability.ts';
import type { LocationEstimateResponse, LocationsResponse, PlacesStatusResponse } from '@leadforge/contracts';
import { memoryProxyQuota, redisProxyQuota, type ProxyQuota } from './outbound/proxyQuota.ts';
import { loadQuotaSnapshot, quotaSnapshotWriter } from './outbound/quotaSnapshot.ts';
import { proxyQuotaRemaining } from './metrics.ts';
import { reportAtScrape } from './usage/scrapeTimeGauges.ts';
import { UsageRecorder } from './usage/usageRecorder.ts';

/**
 * What differs between a production start and a test or benchmark start, passed in code rather
 * than decided by an "if test": name resolution and connection routing (so generated sites on
 * the fixture web resolve to it), and the mail-domain resolver.
 */
export interface ScraperHooks {
  lookup?: HostLookup;
  route?: ConnectRoute;
  mailResolver?: MailResolver;
}

export interface ScraperRuntime {
  ctx: ServiceContext;
  config: ScraperConfig;
  client: OutboundClient;
  /** Parses fetched pages in the process's worker pool, within the parsing budget. */
  reader: PageReader;
  quota: ProxyQuota;
  usage: UsageRecorder;
  worker: JobWorker;
  /** The places a typed location may mean (GET /api/locations). */
  locations(q: string, signal?: AbortSignal): Promise<LocationsResponse>;
  /** How many businesses of an industry a place has, when a source can say it cheaply. */
  estimate(location: string, industry: string, signal?: AbortSignal): Promise<LocationEstimateResponse['estimate']>;
  /** Whether the configured providers answered at start (null checked_at until the check has run). */
  placesStatus(): PlacesStatusResponse;
  /** Saves the in-process quota now (no-op with Redis). */
  saveQuota(): Promise<void>;
  /** Starts recording usage and working on jobs (with the service); `stop` ends them and lets go of what they held. */
  start(): void;
  stop(): Promise<void>;
}

const PUBLIC_NOMINATIM = 'nominatim.openstreetmap.org';
/** A type-ahead's answers are reused this long: places do not move, and Nominatim asks for few requests. */
const LOCATION_CACHE_MS = 10 * 60_000;

export async function buildRuntime(ctx: ServiceContext, config: ScraperConfig, hooks: ScraperHooks = {}): Promise<ScraperRuntime> {
  const saved = ctx.redis ? undefined : await loadQuotaSnapshot(ctx.db);
  const quota = ctx.redis ? redisProxyQuota(ctx.redis, config.quotaRedisKey) : memoryProxyQuota(saved?.remaining ?? DEFAULT_PROXY_QUOTA, saved?.limit);
  const snapshot = ctx.redis ? undefined : quotaSnapshotWriter(ctx.db, ctx.log, quota);
  quota.onChange = (remaining) => {
    proxyQuotaRemaining.set(remaining);
    snapshot?.changed();
  };
  await quota.remaining().then((remaining) => proxyQuotaRemaining.set(remaining), (err) => ctx.log.warn({ err }, 'could not read the proxy quota'));
  const usage = new UsageRecorder(ctx.db, ctx.log);
  const client = new OutboundClient({
    userAgent: config.userAgent,
    proxyUrl: config.decodoProxyUrl,
    allowPrivateNetworks: config.allowPrivateNetworks,
    lookup: hooks.lookup,
    route: hooks.route,
    ...config.http,
    // The public Nominatim allows one request a second (its usage policy).
    hostDelays: { [PUBLIC_NOMINATIM]: 1_000 },
    quota,
    usage,
  });
  const geocodes = geocodeStoreOf(ctx.db);
  const placesSearch = placesSearchFor(config, client.fetchJson, geocodes, usage);
  const locations = createLocationLookup({ fetchJson: client.fetchJson, nominatimUrl: config.nominatimUrl, cacheMs: LOCATION_CACHE_MS });
  const estimate = createPlacesEstimate({
    fetchJson: client.fetchJson,
    overpassUrl: config.overpassUrl,
    sources: config.placesSources,
    geocode: createNominatimGeocoder(client.fetchJson, config.nominatimUrl, { hours: config.geocodeCacheHours, store: geocodes }),
  });
  let placesStatus: PlacesStatusResponse = { reachable: true, providers: [], checked_at: null };
  const probes: ProviderProbe[] = [
    { name: 'nominatim', url: `${config.nominatimUrl.replace(/\/$/, '')}/status?format=json` },
    ...config.placesSources.map((name) => ({
      name,
      url: name === 'osm' ? `${config.overpassUrl.replace(/\/$/, '')}/api/status` : name === 'google' ? config.googlePlacesApiBase : config.decodoScraperApiBase,
    })),
  ];
  const checking = new AbortController();
  const checkReachability = async () => {
    const checked = await checkProviders(client.probeJson, probes, { timeoutMs: config.http.totalTimeoutMs, attempts: 3, pauseMs: 2_000, signal: checking.signal });
    if (checking.signal.aborted) return;
    placesStatus = checked;
    const away = placesStatus.providers.filter((provider) => !provider.reachable);
    if (away.length) {
      ctx.log.warn({ providers: away }, `the places providers cannot be reached (${away.map((provider) => provider.name).join(', ')}): searches fail as provider_unreachable until they can`);
    }
  };
  const uncredentialed = config.placesSources.filter((name) => (name === 'google' && !config.googlePlacesApiKey) || (name === 'decodo' && !config.decodoScraperToken));
  if (uncredentialed.length) {
    ctx.log.warn({ placesSources: uncredentialed }, 'places sources without credentials: each reports its error in the coverage (a search with no other source finishes as "source_failed")');
  }
  const parse = parseConfigOf(config.parse);
  const parsePool = acquireParsePool(parse.workers);
  const reader = createPageReader({
    pool: parsePool.pool, timeoutMs: parse.timeoutMs, maxDepth: parse.maxDepth, onGivenUp: () => usage.recordPageGivenUp(), log: ctx.log,
  });
  const mailResolver = hooks.mailResolver ?? mailResolverFor(config.emailMxResolver, config.emailMxTimeoutMs);
  const { verify: verifyEmail, mailHosts } = configuredEmailVerifier(config, mailResolver);
  const enrich = createSiteEnricher({
    client,
    reader,
    contactPages: config.contactPagesPerSite,
    pagesPerSite: config.pagesPerSite,
    mailCheck: mailHosts && deliverableBy(mailHosts),
  });
  // A restarted replica takes back its dead process's jobs at once (the kit's replicaName).
  const replica = ctx.replica;
  const owner = `${replica}:${process.pid}:${crypto.randomBytes(4).toString('hex')}`;
  const worker = new JobWorker(ctx.db, { owner, replica }, config.jobs, (lease) => new SearchRun(lease, {
    db: ctx.db, placesSearch, enrich, verifyEmail, jobs: config.jobs, emptySiteCacheHours: config.emptySiteCacheHours, log: ctx.log,
  }).run(), ctx.log);
  const stopReporting = reportAtScrape({ db: ctx.db, quota, log: ctx.log });

  return {
    ctx,
    config,
    client,
    reader,
    quota,
    usage,
    worker,
    locations,
    estimate,
    placesStatus: () => placesStatus,
    saveQuota: async () => { await snapshot?.flush(); },
    start() {
      usage.start();
      worker.start();
      // Once, in the background: the service starts whether or not the providers answer.
      void checkReachability().catch((err: unknown) => ctx.log.warn({ err }, 'could not check whether the places providers can be reached'));
    },
    async stop() {
      checking.abort();
      stopReporting();
      await worker.stop();
      await usage.stop().catch((err) => ctx.log.warn({ err }, 'could not save the last proxy usage'));
      await snapshot?.stop().catch((err) => ctx.log.warn({ err }, 'could not save the proxy quota'));
      await client.close();
      await parsePool.release();
    },
  };
}
