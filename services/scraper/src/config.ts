import { ConfigError, readBool, readInt, readVar, standInsAllowed } from '@leadforge/kit/config';

/** The limits of the outbound client, from configuration (SCRAPER_CONCURRENCY, SCRAPER_TIMEOUT_MS...). */
export interface HttpLimits {
  globalConcurrency: number;
  perHostConcurrency: number;
  perHostDelayMs: number;
  maxCrawlDelayMs: number;
  connectTimeoutMs: number;
  totalTimeoutMs: number;
  maxResponseBytes: number;
  maxRetries: number;
  maxRetryAfterMs: number;
}

export type PlacesSourceName = 'osm' | 'google' | 'decodo';

/** Everything the scraper reads from the environment, checked once at start. */
export interface ScraperConfig {
  /** Every source a search asks (PLACES_SOURCES, or the one PLACES_SOURCE names), in this order. */
  placesSources: PlacesSourceName[];
  /** Provider requests (geocoding, Overpass, Google, Decodo) one search may send. */
  providerRequestsPerSearch: number;
  nominatimUrl: string;
  /** How long a geocoded location is reused (SCRAPER_GEOCODE_CACHE_HOURS); 0 geocodes every search. */
  geocodeCacheHours: number;
  /** How long a monitor's run skips a site whose crawl found no contacts (SCRAPER_EMPTY_SITE_CACHE_HOURS); 0 crawls it every run. */
  emptySiteCacheHours: number;
  overpassUrl: string;
  googlePlacesApiBase: string;
  googlePlacesApiKey?: string;
  decodoScraperApiBase: string;
  decodoScraperToken?: string;
  /** `http://user:pass@gate.decodo.com:7000`; page fetches go through it when set. */
  decodoProxyUrl?: string;
  decodoApiBase: string;
  decodoApiKey?: string;
  /** Fetched through the proxy by the admin connection test. */
  proxyCheckUrl: string;
  allowPrivateNetworks: boolean;
  emailMxCheck: boolean;
  /** DNS servers for the MX check ("127.0.0.1:53"); [] asks the system's. */
  emailMxResolver: string[];
  emailMxTimeoutMs: number;
  /** Probe the MX host of domains that take mail for a catch-all (verdict `risky`). */
  emailCatchAllCheck: boolean;
  emailSmtpProbePort: number;
  emailSmtpProbeTimeoutMs: number;
  /** MAIL FROM of the probe; '' is the null sender <>. */
  emailSmtpProbeSender: string;
  /** The Redis key of the shared quota (one per environment sharing a Redis). */
  quotaRedisKey: string;
  userAgent: string;
  /** Pages fetched per site besides the home page (contact, about, impressum...). */
  contactPagesPerSite: number;
  /** Requests per site at most besides robots.txt: home, frames, first-level pages, sitemap, contact pages. */
  pagesPerSite: number;
  http: HttpLimits;
  jobs: {
    /** Searches one replica works on at once. */
    perReplica: number;
    /** Places of one search enriched at once. */
    placeConcurrency: number;
    leaseMs: number;
    pollMs: number;
    maxAttempts: number;
    leadBatchSize: number;
    leadBatchMs: number;
  };
}

const URL_PATTERN = /^https?:\/\/[^\s]+$/;
const PLACES_SOURCES: PlacesSourceName[] = ['osm', 'google', 'decodo'];

function readUrl(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  return readVar(env, name, { default: fallback, pattern: URL_PATTERN, hint: 'an http(s) URL' })!.replace(/\/$/, '');
}

/** PLACES_SOURCES ("osm,google"), else PLACES_SOURCE (one name), else osm. */
function readPlacesSources(env: NodeJS.ProcessEnv): PlacesSourceName[] {
  const listed = readVar(env, 'PLACES_SOURCES');
  const name = listed ? 'PLACES_SOURCES' : 'PLACES_SOURCE';
  const names = (listed ?? readVar(env, 'PLACES_SOURCE', { default: 'osm' })!).split(',').map((part) => part.trim().toLowerCase()).filter(Boolean);
  const unknown = names.find((source) => !PLACES_SOURCES.includes(source as PlacesSourceName));
  if (unknown !== undefined || names.length === 0) throw new ConfigError(name, `must name ${listed ? 'one or more' : 'one'} of ${PLACES_SOURCES.join(', ')}, got "${unknown ?? ''}"`);
  if (!listed && names.length > 1) throw new ConfigError(name, 'names one source; list several in PLACES_SOURCES');
  return [...new Set(names)] as PlacesSourceName[];
}

/** `publicUrl` (the product's address) goes into the crawler's User-Agent, so site owners can reach us. */
export function loadScraperConfig(env: NodeJS.ProcessEnv, publicUrl = 'http://localhost:8080'): ScraperConfig {
  const config: ScraperConfig = {
    placesSources: readPlacesSources(env),
    providerRequestsPerSearch: readInt(env, 'SCRAPER_PROVIDER_REQUESTS_PER_SEARCH', 60, 1, 10_000),
    nominatimUrl: readUrl(env, 'NOMINATIM_URL', 'https://nominatim.openstreetmap.org'),
    geocodeCacheHours: readInt(env, 'SCRAPER_GEOCODE_CACHE_HOURS', 24, 0, 24 * 365),
    emptySiteCacheHours: readInt(env, 'SCRAPER_EMPTY_SITE_CACHE_HOURS', 168, 0, 24 * 365),
    overpassUrl: readUrl(env, 'OVERPASS_URL', 'https://overpass-api.de'),
    googlePlacesApiBase: readUrl(env, 'GOOGLE_PLACES_API_BASE', 'https://places.googleapis.com'),
    googlePlacesApiKey: readVar(env, 'GOOGLE_PLACES_API_KEY'),
    decodoScraperApiBase: readUrl(env, 'DECODO_SCRAPER_API_BASE', 'https://scraper-api.decodo.com'),
    decodoScraperToken: readVar(env, 'DECODO_SCRAPER_TOKEN'),
    decodoProxyUrl: readVar(env, 'DECODO_PROXY_URL', { pattern: /^https?:\/\/[^\s]+$/, hint: 'http://user:pass@gate.decodo.com:7000' }),
    decodoApiBase: readUrl(env, 'DECODO_API_BASE', 'https://api.decodo.com'),
    decodoApiKey: readVar(env, 'DECODO_API_KEY'),
    proxyCheckUrl: readUrl(env, 'DECODO_PROXY_CHECK_URL', 'https://ip.decodo.com/json'),
    allowPrivateNetworks: readBool(env, 'SCRAPER_ALLOW_PRIVATE_NETWORKS', false),
    emailMxCheck: readBool(env, 'EMAIL_MX_CHECK', true),
    emailMxResolver: (readVar(env, 'EMAIL_MX_RESOLVER', { default: '' }) ?? '').split(',').map((server) => server.trim()).filter(Boolean),
    emailMxTimeoutMs: readInt(env, 'EMAIL_MX_TIMEOUT_MS', 3000, 100, 60_000),
    emailCatchAllCheck: readBool(env, 'EMAIL_CATCH_ALL_CHECK', readBool(env, 'EMAIL_MX_CHECK', true)),
    emailSmtpProbePort: readInt(env, 'EMAIL_SMTP_PROBE_PORT', 25, 1, 65_535),
    emailSmtpProbeTimeoutMs: readInt(env, 'EMAIL_SMTP_PROBE_TIMEOUT_MS', 3000, 100, 60_000),
    emailSmtpProbeSender: readVar(env, 'EMAIL_SMTP_PROBE_SENDER', { default: '', pattern: /^(?:[^\s<>@]+@[^\s<>@]+)?$/, hint: 'an email address, or empty for <>' }) ?? '',
    quotaRedisKey: readVar(env, 'SCRAPER_QUOTA_REDIS_KEY', { default: 'leadforge:scraper:proxy-quota' })!,
    userAgent: readVar(env, 'SCRAPER_USER_AGENT', { default: `LeadforgeBot/1.0 (+${publicUrl})` })!,
    contactPagesPerSite: readInt(env, 'SCRAPER_CONTACT_PAGES', 3, 0, 10),
    pagesPerSite: readInt(env, 'SCRAPER_PAGES_PER_SITE', 6, 1, 20),
    http: {
      globalConcurrency: readInt(env, 'SCRAPER_CONCURRENCY', 128, 1, 1000),
      perHostConcurrency: readInt(env, 'SCRAPER_PER_HOST_CONCURRENCY', 2, 1, 50),
      perHostDelayMs: readInt(env, 'SCRAPER_PER_HOST_DELAY_MS', 250, 0, 60_000),
      maxCrawlDelayMs: readInt(env, 'SCRAPER_MAX_CRAWL_DELAY_MS', 5_000, 0, 60_000),
      connectTimeoutMs: readInt(env, 'SCRAPER_CONNECT_TIMEOUT_MS', 5_000, 100, 60_000),
      totalTimeoutMs: readInt(env, 'SCRAPER_TIMEOUT_MS', 15_000, 100, 300_000),
      maxResponseBytes: readInt(env, 'SCRAPER_MAX_RESPONSE_BYTES', 2 * 1024 * 1024, 1024, 100 * 1024 * 1024),
      maxRetries: readInt(env, 'SCRAPER_MAX_RETRIES', 2, 0, 10),
      maxRetryAfterMs: readInt(env, 'SCRAPER_MAX_RETRY_AFTER_MS', 10_000, 0, 300_000),
    },
    jobs: {
      perReplica: readInt(env, 'SCRAPER_JOBS_PER_REPLICA', 4, 1, 100),
      placeConcurrency: readInt(env, 'SCRAPER_PLACE_CONCURRENCY', 128, 1, 1000),
      leaseMs: readInt(env, 'SCRAPER_JOB_LEASE_MS', 30_000, 500, 3_600_000),
      pollMs: readInt(env, 'SCRAPER_JOB_POLL_MS', 1_000, 10, 60_000),
      maxAttempts: readInt(env, 'SCRAPER_JOB_MAX_ATTEMPTS', 5, 1, 100),
      leadBatchSize: readInt(env, 'SCRAPER_LEAD_BATCH_SIZE', 5, 1, 200),
      leadBatchMs: readInt(env, 'SCRAPER_LEAD_BATCH_MS', 500, 0, 60_000),
    },
  };
  if (env.NODE_ENV === 'production') requireProductionCredentials(config, standInsAllowed(env));
  return config;
}

/** Production never falls back silently: the chosen source must have its credentials. */
function requireProductionCredentials(config: ScraperConfig, standIns: boolean): void {
  if (config.placesSources.includes('google') && !config.googlePlacesApiKey) throw new ConfigError('GOOGLE_PLACES_API_KEY', 'is required when the places sources include google');
  if (config.placesSources.includes('decodo') && !config.decodoScraperToken) throw new ConfigError('DECODO_SCRAPER_TOKEN', 'is required when the places sources include decodo');
  if (config.allowPrivateNetworks && !standIns) throw new ConfigError('SCRAPER_ALLOW_PRIVATE_NETWORKS', 'must not be true in production');
}
