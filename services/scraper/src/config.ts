import { Type, type Static } from 'typebox';
import { collectConfig, readVariables, standInsAllowed, Variable, type ConfigProblems } from '@leadforge/kit/config';

const PLACES_SOURCES: PlacesSourceName[] = ['osm', 'google', 'decodo'];

/** Every variable the scraper reads besides the kit's. */
export const ScraperVariables = Type.Object({
  PLACES_SOURCES: Variable.list({ description: 'where businesses come from, every listed source in each search, merged: `osm` (Nominatim + Overpass, no key), `google` (Places API (New)), `decodo` (Decodo Web Scraping API, Google Maps)', defaultText: '`osm`', lowerCase: true }),
  PLACES_SOURCE: Variable.string({ description: 'one source, the older form of `PLACES_SOURCES`', defaultText: '`osm`' }),
  SCRAPER_PROVIDER_REQUESTS_PER_SEARCH: Variable.integer({ description: 'provider requests (geocoding, Overpass, Google, Decodo) one search may send', default: 60, minimum: 1, maximum: 10_000 }),
  NOMINATIM_URL: Variable.string({ description: 'OpenStreetMap geocoding', default: 'https://nominatim.openstreetmap.org', base: true }),
  OVERPASS_URL: Variable.string({ description: 'OpenStreetMap business search', default: 'https://overpass-api.de', base: true }),
  SCRAPER_GEOCODE_CACHE_HOURS: Variable.integer({ description: 'how long a geocoded location is reused (in the scraper\'s database, shared by replicas); `0` geocodes every search', default: 24, minimum: 0, maximum: 24 * 365 }),
  SCRAPER_EMPTY_SITE_CACHE_HOURS: Variable.integer({ description: 'how long a monitor\'s run skips a website whose last complete crawl found no contact details; `0` crawls it every run', default: 168, minimum: 0, maximum: 24 * 365 }),
  GOOGLE_PLACES_API_BASE: Variable.string({ description: 'Google Places API (New)', default: 'https://places.googleapis.com', base: true }),
  GOOGLE_PLACES_API_KEY: Variable.string({ description: 'its key', defaultText: 'unset', secret: true, production: 'when the sources include `google`' }),
  DECODO_SCRAPER_API_BASE: Variable.string({ description: 'Decodo Web Scraping API', default: 'https://scraper-api.decodo.com', base: true }),
  DECODO_SCRAPER_TOKEN: Variable.string({ description: 'its Basic token', defaultText: 'unset', secret: true, production: 'when the sources include `decodo`' }),
  DECODO_PROXY_URL: Variable.string({ description: 'proxy the page fetches go through, `http://user:pass@gate.decodo.com:7000`', defaultText: 'direct', pattern: /^https?:\/\/[^\s]+$/, hint: 'http://user:pass@gate.decodo.com:7000', secret: true }),
  DECODO_API_BASE: Variable.string({ description: 'Decodo\'s account API (proxy usage)', default: 'https://api.decodo.com', base: true }),
  DECODO_API_KEY: Variable.string({ description: 'its key', defaultText: 'unset', secret: true }),
  DECODO_PROXY_CHECK_URL: Variable.string({ description: 'fetched through the proxy by the admin connection test', default: 'https://ip.decodo.com/json', base: true }),
  SCRAPER_ALLOW_PRIVATE_NETWORKS: Variable.boolean({ description: '`true` lets the crawler fetch loopback and private addresses (tests; refused in production)', default: false }),
  EMAIL_MX_CHECK: Variable.boolean({ description: 'check that an email\'s domain takes mail (MX)', default: true }),
  EMAIL_MX_RESOLVER: Variable.list({ description: 'DNS servers for the MX check (`127.0.0.1:53`)', default: [], defaultText: 'the system\'s' }),
  EMAIL_MX_TIMEOUT_MS: Variable.integer({ description: 'timeout of one MX lookup', default: 3000, minimum: 100, maximum: 60_000 }),
  EMAIL_SMTP_CHECK: Variable.boolean({ description: 'ask the domain\'s best mail host, over SMTP, whether it takes mail for the address (RCPT TO, never DATA); off, or with port 25 blocked, verdicts say `unknown`', defaultText: '`EMAIL_MX_CHECK`' }),
  EMAIL_ACCEPT_ALL_CHECK: Variable.boolean({ description: 'ask first for a random address at the domain: a server taking it accepts all (verdict `accept_all`)', default: true }),
  EMAIL_SMTP_PROBE_PORT: Variable.integer({ description: 'port of the mail hosts asked', default: 25, minimum: 1, maximum: 65_535 }),
  EMAIL_SMTP_PROBE_TIMEOUT_MS: Variable.integer({ description: 'the longest one SMTP conversation takes (a slower server\'s verdict is `unknown`)', default: 8000, minimum: 100, maximum: 60_000 }),
  EMAIL_SMTP_PROBE_HELO: Variable.string({ description: 'the name said in EHLO; a real FQDN whose reverse DNS matches the sending address', defaultText: 'the host name' }),
  EMAIL_SMTP_PROBE_SENDER: Variable.string({ description: 'MAIL FROM of the probe', default: '', defaultText: 'the null sender `<>`', pattern: /^(?:[^\s<>@]+@[^\s<>@]+)?$/, hint: 'an email address, or empty for <>' }),
  EMAIL_SMTP_GREYLIST_RETRY_MS: Variable.integer({ description: 'wait before the one retry of a greylisted probe (450/451); `0` does not retry', default: 60_000, minimum: 0, maximum: 15 * 60_000 }),
  EMAIL_SMTP_MX_INTERVAL_MS: Variable.integer({ description: 'pause between two probes of one mail host', default: 1000, minimum: 0, maximum: 3_600_000 }),
  EMAIL_SMTP_MX_PROBES_PER_HOUR: Variable.integer({ description: 'probes of one mail host an hour at most; past it verdicts say `unknown`', default: 600, minimum: 1, maximum: 1_000_000 }),
  EMAIL_SMTP_MX_MAX_WAIT_MS: Variable.integer({ description: 'the longest a verdict waits for its turn at a busy mail host (then `unknown`)', default: 60_000, minimum: 0, maximum: 3_600_000 }),
  EMAIL_VERDICT_CACHE_HOURS: Variable.integer({ description: 'how long a verdict on an address is reused', default: 24, minimum: 0, maximum: 24 * 365 }),
  EMAIL_UNKNOWN_CACHE_MINUTES: Variable.integer({ description: 'how long an `unknown` verdict is reused before the address is asked again', default: 10, minimum: 0, maximum: 24 * 60 }),
  EMAIL_ACCEPT_ALL_CACHE_HOURS: Variable.integer({ description: 'how long a domain found accepting all (or not) is remembered', default: 24, minimum: 0, maximum: 24 * 365 }),
  SCRAPER_QUOTA_REDIS_KEY: Variable.string({ description: 'the Redis key of the shared proxy quota (one per environment sharing a Redis)', default: 'leadforge:scraper:proxy-quota' }),
  SCRAPER_USER_AGENT: Variable.string({ description: 'the crawler\'s User-Agent', defaultText: '`LeadforgeBot/1.0 (+$PUBLIC_URL)`' }),
  SCRAPER_CONTACT_PAGES: Variable.integer({ description: 'pages fetched per site besides the home page (contact, about, impressum...)', default: 3, minimum: 0, maximum: 10 }),
  SCRAPER_PAGES_PER_SITE: Variable.integer({ description: 'requests per site at most besides robots.txt', default: 6, minimum: 1, maximum: 20 }),
  SCRAPER_CONCURRENCY: Variable.integer({ description: 'requests in flight at once, all hosts', default: 128, minimum: 1, maximum: 1000 }),
  SCRAPER_PER_HOST_CONCURRENCY: Variable.integer({ description: 'requests in flight at once to one host', default: 2, minimum: 1, maximum: 50 }),
  SCRAPER_PER_HOST_DELAY_MS: Variable.integer({ description: 'pause between requests to one host', default: 250, minimum: 0, maximum: 60_000 }),
  SCRAPER_MAX_CRAWL_DELAY_MS: Variable.integer({ description: 'the longest robots.txt `Crawl-delay` honoured', default: 5_000, minimum: 0, maximum: 60_000 }),
  SCRAPER_CONNECT_TIMEOUT_MS: Variable.integer({ description: 'connect timeout of a fetch', default: 5_000, minimum: 100, maximum: 60_000 }),
  SCRAPER_TIMEOUT_MS: Variable.integer({ description: 'total timeout of a fetch', default: 15_000, minimum: 100, maximum: 300_000 }),
  SCRAPER_MAX_RESPONSE_BYTES: Variable.integer({ description: 'the largest response body read', default: 2 * 1024 * 1024, minimum: 1024, maximum: 100 * 1024 * 1024 }),
  SCRAPER_MAX_RETRIES: Variable.integer({ description: 'retries of a fetch that failed on the way', default: 2, minimum: 0, maximum: 10 }),
  SCRAPER_MAX_RETRY_AFTER_MS: Variable.integer({ description: 'the longest `Retry-After` waited for', default: 10_000, minimum: 0, maximum: 300_000 }),
  SCRAPER_PARSE_WORKERS: Variable.integer({ description: 'worker threads parsing pages', defaultText: 'the cores the process may use, less one', minimum: 1, maximum: 64 }),
  SCRAPER_PARSE_TIMEOUT_MS: Variable.integer({ description: 'time one page may take in a worker', default: 3_000, minimum: 1, maximum: 60_000 }),
  SCRAPER_PARSE_MAX_DEPTH: Variable.integer({ description: 'element nesting past which a page is given up', defaultText: 'the parser\'s own limit (`DEFAULT_MAX_DEPTH`, 1000)', minimum: 16, maximum: 5_000 }),
  SCRAPER_JOBS_PER_REPLICA: Variable.integer({ description: 'searches one replica works on at once', default: 4, minimum: 1, maximum: 100 }),
  SCRAPER_PLACE_CONCURRENCY: Variable.integer({ description: 'places of one search enriched at once', default: 128, minimum: 1, maximum: 1000 }),
  SCRAPER_JOB_LEASE_MS: Variable.integer({ description: 'how long a taken job is left to one replica without a renewal', default: 30_000, minimum: 500, maximum: 3_600_000 }),
  SCRAPER_JOB_POLL_MS: Variable.integer({ description: 'how often free jobs are looked for', default: 1_000, minimum: 10, maximum: 60_000 }),
  SCRAPER_JOB_MAX_ATTEMPTS: Variable.integer({ description: 'attempts at a job before it fails', default: 5, minimum: 1, maximum: 100 }),
  SCRAPER_LEAD_BATCH_SIZE: Variable.integer({ description: 'leads published together', default: 5, minimum: 1, maximum: 200 }),
  SCRAPER_LEAD_BATCH_MS: Variable.integer({ description: 'the longest a lead waits for its batch', default: 500, minimum: 0, maximum: 60_000 }),
});
type ScraperVariables = Static<typeof ScraperVariables>;

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

/** How addresses are verified over SMTP; every part can be switched off or tuned. */
export interface EmailSmtpConfig {
  enabled: boolean;
  /** A random local part first: a server taking it accepts all. */
  acceptAllCheck: boolean;
  port: number;
  timeoutMs: number;
  /** EHLO name; unset says the host name. */
  heloName?: string;
  /** MAIL FROM; '' is the null sender <>. */
  sender: string;
  /** Wait before the one retry of a greylisted probe; 0 does not retry. */
  greylistRetryMs: number;
  pacing: { intervalMs: number; perHour: number; maxWaitMs: number };
  verdictTtlMs: number;
  unknownTtlMs: number;
  acceptAllTtlMs: number;
}

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
  /** The SMTP verification of addresses (EMAIL_SMTP_*, EMAIL_*_CACHE_*). */
  emailSmtp: EmailSmtpConfig;
  /** The Redis key of the shared quota (one per environment sharing a Redis). */
  quotaRedisKey: string;
  userAgent: string;
  /** Pages fetched per site besides the home page (contact, about, impressum...). */
  contactPagesPerSite: number;
  /** Requests per site at most besides robots.txt: home, frames, first-level pages, sitemap, contact pages. */
  pagesPerSite: number;
  http: HttpLimits;
  /** Unset parts take the parser's defaults (crawl/parseConfig.ts). */
  parse: { workers?: number; timeoutMs: number; maxDepth?: number };
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

/** PLACES_SOURCES ("osm,google"), else PLACES_SOURCE (one name), else osm. */
function placesSourcesOf(vars: ScraperVariables, problems: ConfigProblems): PlacesSourceName[] {
  const listed = vars.PLACES_SOURCES?.length ? vars.PLACES_SOURCES : undefined;
  const name = listed ? 'PLACES_SOURCES' : 'PLACES_SOURCE';
  const names = listed ?? (vars.PLACES_SOURCE ?? 'osm').split(',').map((part) => part.trim().toLowerCase()).filter(Boolean);
  const unknown = names.find((source) => !PLACES_SOURCES.includes(source as PlacesSourceName));
  if (unknown !== undefined || names.length === 0) {
    problems.add(name, `must name ${listed ? 'one or more' : 'one'} of ${PLACES_SOURCES.join(', ')}, got "${unknown ?? ''}"`);
    return ['osm'];
  }
  if (!listed && names.length > 1) problems.add(name, 'names one source; list several in PLACES_SOURCES');
  return [...new Set(names)] as PlacesSourceName[];
}

/**
 * The scraper's configuration. `kit.publicUrl` (the product's address) goes into the crawler's
 * User-Agent, so site owners can reach us; `kit.requireRealProviders`: production without stand-ins.
 */
export function scraperConfigFrom(env: NodeJS.ProcessEnv, problems: ConfigProblems, kit: { publicUrl: string; requireRealProviders: boolean }): ScraperConfig {
  const vars = readVariables(ScraperVariables, env, problems);
  const config: ScraperConfig = {
    placesSources: placesSourcesOf(vars, problems),
    providerRequestsPerSearch: vars.SCRAPER_PROVIDER_REQUESTS_PER_SEARCH,
    nominatimUrl: vars.NOMINATIM_URL,
    geocodeCacheHours: vars.SCRAPER_GEOCODE_CACHE_HOURS,
    emptySiteCacheHours: vars.SCRAPER_EMPTY_SITE_CACHE_HOURS,
    overpassUrl: vars.OVERPASS_URL,
    googlePlacesApiBase: vars.GOOGLE_PLACES_API_BASE,
    googlePlacesApiKey: vars.GOOGLE_PLACES_API_KEY,
    decodoScraperApiBase: vars.DECODO_SCRAPER_API_BASE,
    decodoScraperToken: vars.DECODO_SCRAPER_TOKEN,
    decodoProxyUrl: vars.DECODO_PROXY_URL,
    decodoApiBase: vars.DECODO_API_BASE,
    decodoApiKey: vars.DECODO_API_KEY,
    proxyCheckUrl: vars.DECODO_PROXY_CHECK_URL,
    allowPrivateNetworks: vars.SCRAPER_ALLOW_PRIVATE_NETWORKS,
    emailMxCheck: vars.EMAIL_MX_CHECK,
    emailMxResolver: vars.EMAIL_MX_RESOLVER,
    emailMxTimeoutMs: vars.EMAIL_MX_TIMEOUT_MS,
    emailSmtp: {
      enabled: vars.EMAIL_SMTP_CHECK ?? vars.EMAIL_MX_CHECK,
      acceptAllCheck: vars.EMAIL_ACCEPT_ALL_CHECK,
      port: vars.EMAIL_SMTP_PROBE_PORT,
      timeoutMs: vars.EMAIL_SMTP_PROBE_TIMEOUT_MS,
      heloName: vars.EMAIL_SMTP_PROBE_HELO,
      sender: vars.EMAIL_SMTP_PROBE_SENDER,
      greylistRetryMs: vars.EMAIL_SMTP_GREYLIST_RETRY_MS,
      pacing: { intervalMs: vars.EMAIL_SMTP_MX_INTERVAL_MS, perHour: vars.EMAIL_SMTP_MX_PROBES_PER_HOUR, maxWaitMs: vars.EMAIL_SMTP_MX_MAX_WAIT_MS },
      verdictTtlMs: vars.EMAIL_VERDICT_CACHE_HOURS * 60 * 60 * 1000,
      unknownTtlMs: vars.EMAIL_UNKNOWN_CACHE_MINUTES * 60 * 1000,
      acceptAllTtlMs: vars.EMAIL_ACCEPT_ALL_CACHE_HOURS * 60 * 60 * 1000,
    },
    quotaRedisKey: vars.SCRAPER_QUOTA_REDIS_KEY,
    userAgent: vars.SCRAPER_USER_AGENT ?? `LeadforgeBot/1.0 (+${kit.publicUrl})`,
    contactPagesPerSite: vars.SCRAPER_CONTACT_PAGES,
    pagesPerSite: vars.SCRAPER_PAGES_PER_SITE,
    http: {
      globalConcurrency: vars.SCRAPER_CONCURRENCY,
      perHostConcurrency: vars.SCRAPER_PER_HOST_CONCURRENCY,
      perHostDelayMs: vars.SCRAPER_PER_HOST_DELAY_MS,
      maxCrawlDelayMs: vars.SCRAPER_MAX_CRAWL_DELAY_MS,
      connectTimeoutMs: vars.SCRAPER_CONNECT_TIMEOUT_MS,
      totalTimeoutMs: vars.SCRAPER_TIMEOUT_MS,
      maxResponseBytes: vars.SCRAPER_MAX_RESPONSE_BYTES,
      maxRetries: vars.SCRAPER_MAX_RETRIES,
      maxRetryAfterMs: vars.SCRAPER_MAX_RETRY_AFTER_MS,
    },
    parse: {
      workers: vars.SCRAPER_PARSE_WORKERS,
      timeoutMs: vars.SCRAPER_PARSE_TIMEOUT_MS,
      maxDepth: vars.SCRAPER_PARSE_MAX_DEPTH,
    },
    jobs: {
      perReplica: vars.SCRAPER_JOBS_PER_REPLICA,
      placeConcurrency: vars.SCRAPER_PLACE_CONCURRENCY,
      leaseMs: vars.SCRAPER_JOB_LEASE_MS,
      pollMs: vars.SCRAPER_JOB_POLL_MS,
      maxAttempts: vars.SCRAPER_JOB_MAX_ATTEMPTS,
      leadBatchSize: vars.SCRAPER_LEAD_BATCH_SIZE,
      leadBatchMs: vars.SCRAPER_LEAD_BATCH_MS,
    },
  };
  if (env.NODE_ENV === 'production') requireProductionCredentials(config, !kit.requireRealProviders, problems);
  return config;
}

/** The scraper's configuration alone (tests, benchmarks), every problem thrown together. */
export function loadScraperConfig(env: NodeJS.ProcessEnv, publicUrl = 'http://localhost:8080'): ScraperConfig {
  const requireRealProviders = env.NODE_ENV === 'production' && !standInsAllowed(env);
  return collectConfig((problems) => scraperConfigFrom(env, problems, { publicUrl, requireRealProviders }));
}

/** Production never falls back silently: the chosen source must have its credentials. */
function requireProductionCredentials(config: ScraperConfig, standIns: boolean, problems: ConfigProblems): void {
  if (config.placesSources.includes('google') && !config.googlePlacesApiKey) problems.add('GOOGLE_PLACES_API_KEY', 'is required when the places sources include google');
  if (config.placesSources.includes('decodo') && !config.decodoScraperToken) problems.add('DECODO_SCRAPER_TOKEN', 'is required when the places sources include decodo');
  if (config.allowPrivateNetworks && !standIns) problems.add('SCRAPER_ALLOW_PRIVATE_NETWORKS', 'must not be true in production');
}
