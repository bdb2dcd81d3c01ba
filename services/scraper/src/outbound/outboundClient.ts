import { Agent, ProxyAgent, type Dispatcher } from 'undici';
import type { FetchJson, JsonRequestInit } from '../places/index.ts';
import type { ProxyQuota } from './proxyQuota.ts';
import type { HttpLimits } from '../config.ts';
import { guardedConnector, type ConnectRoute } from '@leadforge/kit/outbound';
import { backoffWithJitter } from '@leadforge/kit/work';
import { HostPacer } from './hostPacing.ts';
import { parseFetchableUrl, resolveAllowedAddress, systemLookup, type HostLookup } from '@leadforge/kit/outbound';
import { isOutboundError, OutboundError } from '@leadforge/kit/outbound';
import { contentKind, decodeText, readCapped, type ContentKind } from './responseBody.ts';
import { isRetryableStatus, retryAfterMs } from './retryPolicy.ts';
import { RobotsRules } from './robotsRules.ts';

/** One outbound request as usage counts it. */
export interface UsageEntry {
  /** Target host without a leading "www.". */
  domain: string;
  /** The target answered (below 500, not 429) with a body we could take; errors, timeouts, 5xx, 429 and refused bodies are failures. */
  ok: boolean;
  ms: number;
  bytes: number;
  proxied: boolean;
}

export interface UsageSink {
  record(entry: UsageEntry): void;
}

export interface OutboundClientOptions extends HttpLimits {
  userAgent: string;
  /** Crawled pages and admin scrapes go through this proxy when set. */
  proxyUrl?: string;
  allowPrivateNetworks: boolean;
  lookup?: HostLookup;
  route?: ConnectRoute;
  retryBaseMs?: number;
  /** Minimum spacing for particular hosts (the public Nominatim asks for one request a second). */
  hostDelays?: Record<string, number>;
  quota: ProxyQuota;
  usage: UsageSink;
}

/** How one kind of request is made. */
interface Policy {
  /** SSRF guard: for URLs that come from outside (places, pages, admins), not from our config. */
  guard: boolean;
  robots: boolean;
  /** Through the proxy when one is configured; 'required' fails without one. */
  proxy: boolean | 'required';
  /** Proxied requests of this kind take one from the shared quota. */
  quota: boolean;
  /** 'html' refuses anything else before reading its body. */
  accept: 'html' | 'any';
  maxBytes?: number;
  /** False for the product's own checks: they are not usage the admin panel reports. */
  countsAsUsage?: boolean;
}

const CRAWL: Policy = { guard: true, robots: true, proxy: true, quota: true, accept: 'html' };
const SITEMAP: Policy = { guard: true, robots: true, proxy: true, quota: true, accept: 'any', maxBytes: 1024 * 1024 };
const ROBOTS_FILE: Policy = { guard: true, robots: false, proxy: true, quota: true, accept: 'any', maxBytes: 512 * 1024 };
const ADMIN_SCRAPE: Policy = { guard: true, robots: false, proxy: true, quota: true, accept: 'any' };
const PROVIDER_API: Policy = { guard: false, robots: false, proxy: false, quota: false, accept: 'any' };
const PROXY_CHECK: Policy = { guard: false, robots: false, proxy: 'required', quota: false, accept: 'any' };
const PROVIDER_PROBE: Policy = { ...PROVIDER_API, countsAsUsage: false };

export interface FetchedResponse {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  contentType?: string;
  kind: ContentKind;
  body: Buffer;
}

export interface FetchedPage {
  url: string;
  status: number;
  html: string;
}

interface RequestInit {
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;
const RETRYABLE_NETWORK_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const HTML_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5';

const sleep = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve, reject) => {
  if (signal?.aborted) return reject(signal.reason);
  const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
  const onAbort = () => { clearTimeout(timer); reject(signal!.reason); };
  signal?.addEventListener('abort', onAbort, { once: true });
});

/** Drops a body we will not read; destroying it makes undici emit an error nobody needs. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

const usageDomain = (hostname: string): string => hostname.toLowerCase().replace(/^www\./, '');

/**
 * The one outbound HTTP client of the scraper (undici): the Decodo proxy for crawling when
 * configured, global and per-host limits with spacing, robots.txt, connect and total timeouts,
 * a response size cap, retries with backoff honouring Retry-After, the SSRF guard on every
 * connection and redirect, the shared proxy quota, and usage recording.
 */
export class OutboundClient {
  private readonly guarded: Agent;
  private readonly trusted: Agent;
  private readonly proxy?: ProxyAgent;
  private readonly pacer: HostPacer;
  private readonly robots: RobotsRules;
  private readonly lookup: HostLookup;

  constructor(private readonly options: OutboundClientOptions) {
    this.lookup = options.lookup ?? systemLookup;
    const timeouts = { headersTimeout: options.totalTimeoutMs, bodyTimeout: options.totalTimeoutMs };
    this.guarded = new Agent({
      ...timeouts,
      connect: guardedConnector({ lookup: this.lookup, allowPrivateNetworks: options.allowPrivateNetworks, connectTimeoutMs: options.connectTimeoutMs, route: options.route }),
    });
    this.trusted = new Agent({ ...timeouts, connect: { timeout: options.connectTimeoutMs } });
    if (options.proxyUrl) this.proxy = new ProxyAgent({ uri: options.proxyUrl, ...timeouts, proxyTls: { timeout: options.connectTimeoutMs } });
    this.pacer = new HostPacer({ globalConcurrency: options.globalConcurrency, perHost: options.perHostConcurrency, delayMs: options.perHostDelayMs });
    this.robots = new RobotsRules(
      (robotsUrl) => this.fetchRobotsFile(robotsUrl),
      { userAgent: options.userAgent, maxCrawlDelayMs: options.maxCrawlDelayMs },
    );
  }

  /** A page of a business website, for the crawler: robots.txt honoured, HTML only, 2xx only. */
  async fetchPage(url: string, signal?: AbortSignal): Promise<FetchedPage> {
    const response = await this.request(url, { method: 'GET', headers: { accept: HTML_ACCEPT } }, CRAWL, signal);
    if (response.status < 200 || response.status >= 300) {
      throw new OutboundError('http_status', `${response.url} answered HTTP ${response.status}`, response.url, response.status);
    }
    if (response.kind !== 'html') throw new OutboundError('unsupported_content', `${response.url} is not an HTML page`, response.url);
    return { url: response.url, status: response.status, html: decodeText(response.body, response.contentType) };
  }

  /** A site's sitemap for the crawler (robots.txt honoured): its text, or an error for a non-2xx answer. */
  async fetchSitemap(url: string, signal?: AbortSignal): Promise<string> {
    const response = await this.request(url, { method: 'GET', headers: { accept: 'application/xml,text/xml,text/plain;q=0.9,*/*;q=0.5' } }, SITEMAP, signal);
    if (response.status < 200 || response.status >= 300) {
      throw new OutboundError('http_status', `${response.url} answered HTTP ${response.status}`, response.url, response.status);
    }
    return decodeText(response.body, response.contentType);
  }

  /** A provider API call (Nominatim, Overpass, Google Places, Decodo): the places sources' fetchJson. */
  readonly fetchJson: FetchJson = (url: string, init: JsonRequestInit = {}) => this.providerJson(url, init, PROVIDER_API);

  /** The start-up check that the providers answer, as fetchJson but not counted as usage. */
  readonly probeJson: FetchJson = (url: string, init: JsonRequestInit = {}) => this.providerJson(url, init, PROVIDER_PROBE);

  private async providerJson(url: string, init: JsonRequestInit, policy: Policy): Promise<unknown> {
    const response = await this.request(url, { method: init.method ?? 'GET', headers: { accept: 'application/json', ...init.headers }, body: init.body }, policy, init.signal);
    const text = decodeText(response.body, response.contentType);
    if (response.status < 200 || response.status >= 300) {
      throw new OutboundError('http_status', `${new URL(url).host} answered HTTP ${response.status}: ${text.replace(/\s+/g, ' ').slice(0, 300)}`, url, response.status);
    }
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }


  /** A one-off fetch an admin asked for: guarded and proxied, any status, any text content. */
  async scrape(url: string, signal?: AbortSignal): Promise<FetchedResponse> {
    const response = await this.request(url, { method: 'GET', headers: { accept: 'text/html,application/json;q=0.9,*/*;q=0.5' } }, ADMIN_SCRAPE, signal);
    if (response.kind === 'other') throw new OutboundError('unsupported_content', `${response.url} answered ${response.contentType ?? 'binary content'}, not HTML, JSON or text`, response.url);
    return response;
  }

  /** Fetches a check URL through the proxy (admin connection test); fails when no proxy is configured. */
  async throughProxy(url: string, signal?: AbortSignal): Promise<FetchedResponse> {
    return this.request(url, { method: 'GET', headers: { accept: 'application/json,*/*;q=0.5' } }, PROXY_CHECK, signal);
  }

  /**
   * Ends every connection, with any request still under way: called once the runs have stopped, when
   * what is left in flight has no one waiting for it (a robots.txt fetch the runs shared, or a request
   * of a run left to its lease). A graceful close would wait out its timeout (SCRAPER_TIMEOUT_MS).
   */
  async close(): Promise<void> {
    await Promise.all([this.guarded.destroy(), this.trusted.destroy(), this.proxy?.destroy()]);
  }

  private async fetchRobotsFile(robotsUrl: string): Promise<{ status: number; body: string }> {
    try {
      const response = await this.request(robotsUrl, { method: 'GET', headers: { accept: 'text/plain,*/*;q=0.5' } }, ROBOTS_FILE);
      return { status: response.status, body: response.status === 200 ? decodeText(response.body, response.contentType) : '' };
    } catch (error) {
      if (isOutboundError(error) && ['quota_exhausted', 'aborted', 'blocked_address'].includes(error.code)) throw error;
      return { status: 0, body: '' };
    }
  }

  /** Every way a fetch can end as an OutboundError: a caller's abort too, wherever it caught the fetch. */
  private async request(rawUrl: string, init: RequestInit, policy: Policy, signal?: AbortSignal): Promise<FetchedResponse> {
    try {
      return await this.follow(rawUrl, init, policy, signal);
    } catch (error) {
      if (!(error instanceof OutboundError) && signal?.aborted) throw new OutboundError('aborted', 'The fetch was cancelled', rawUrl);
      throw error;
    }
  }

  /** Follows redirects itself so every hop is checked like the first. */
  private async follow(rawUrl: string, init: RequestInit, policy: Policy, signal?: AbortSignal): Promise<FetchedResponse> {
    let url = policy.guard ? parseFetchableUrl(rawUrl) : new URL(rawUrl);
    let current = init;
    for (let hop = 0; ; hop++) {
      const answer = await this.withRetries(url, current, policy, signal);
      if (!('location' in answer)) return answer;
      if (hop >= MAX_REDIRECTS) throw new OutboundError('too_many_redirects', `More than ${MAX_REDIRECTS} redirects from ${rawUrl}`, rawUrl);
      const next = new URL(answer.location, url).href;
      url = policy.guard ? parseFetchableUrl(next) : new URL(next);
      if (answer.status === 303 || ((answer.status === 301 || answer.status === 302) && current.method === 'POST')) {
        current = { method: 'GET', headers: current.headers };
      }
    }
  }

  private async withRetries(url: URL, init: RequestInit, policy: Policy, signal?: AbortSignal): Promise<FetchedResponse | { status: number; location: string }> {
    for (let attempt = 1; ; attempt++) {
      try {
        const answer = await this.attempt(url, init, policy, signal);
        if ('retryAfter' in answer) {
          const wait = answer.retryAfter ?? this.retryPause(attempt);
          if (attempt > this.options.maxRetries || wait > this.options.maxRetryAfterMs) return answer.response;
          await sleep(wait, signal);
          continue;
        }
        return answer;
      } catch (error) {
        const retryable = isOutboundError(error, 'network') && RETRYABLE_NETWORK_CODES.has((error.cause as NodeJS.ErrnoException | undefined)?.code ?? '');
        if (!retryable || attempt > this.options.maxRetries) throw error;
        await sleep(this.retryPause(attempt), signal);
      }
    }
  }

  /** The kit's backoff, never longer than the longest Retry-After this client honours. */
  private retryPause(attempt: number): number {
    return backoffWithJitter(attempt, { baseMs: this.options.retryBaseMs ?? 400, maxMs: this.options.maxRetryAfterMs });
  }

  /** One HTTP exchange, paced, counted and timed. */
  private async attempt(url: URL, init: RequestInit, policy: Policy, signal?: AbortSignal)
    : Promise<FetchedResponse | { status: number; location: string } | { retryAfter: number | undefined; response: FetchedResponse }> {
    const viaProxy = policy.proxy !== false && Boolean(this.proxy);
    if (policy.proxy === 'required' && !this.proxy) throw new OutboundError('proxy_not_configured', 'No proxy is configured (DECODO_PROXY_URL)', url.href);
    let crawlDelayMs = 0;
    if (policy.robots) {
      const verdict = await this.robots.check(url, signal);
      if (!verdict.allowed) throw new OutboundError('robots_disallowed', `robots.txt of ${url.host} disallows ${url.pathname}`, url.href);
      crawlDelayMs = verdict.crawlDelayMs;
    }
    // Direct connections are checked by the guarded connector as they open; a proxy resolves the
    // name itself, so check the name here first.
    if (policy.guard && viaProxy) await resolveAllowedAddress(url.hostname, this.lookup, this.options.allowPrivateNetworks, url.href);

    const release = await this.pacer.acquire(url.host, Math.max(crawlDelayMs, this.options.hostDelays?.[url.hostname] ?? 0), signal);
    try {
      if (viaProxy && policy.quota && !(await this.options.quota.take())) {
        throw new OutboundError('quota_exhausted', 'The proxy request quota is exhausted', url.href);
      }
      return await this.exchange(url, init, policy, viaProxy, signal);
    } finally {
      release();
    }
  }

  private async exchange(url: URL, init: RequestInit, policy: Policy, viaProxy: boolean, signal?: AbortSignal)
    : Promise<FetchedResponse | { status: number; location: string } | { retryAfter: number | undefined; response: FetchedResponse }> {
    const dispatcher: Dispatcher = viaProxy ? this.proxy! : policy.guard ? this.guarded : this.trusted;
    const timeout = AbortSignal.timeout(this.options.totalTimeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const started = performance.now();
    let ok = false;
    let bytes = 0;
    let sent = true;
    try {
      const response = await dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: init.method,
        headers: { 'user-agent': this.options.userAgent, 'accept-language': 'en;q=0.9,*;q=0.5', ...init.headers },
        body: init.body,
        signal: combined,
      });
      const { statusCode: status, headers } = response;
      const header = (name: string) => { const value = headers[name]; return Array.isArray(value) ? value[0] : value; };
      // The target answered: a 404 is still a request the proxy carried; 5xx and 429 are not successes.
      ok = status < 500 && status !== 429;
      const location = header('location');
      if (REDIRECTS.has(status) && location) {
        await response.body.dump();
        return { status, location };
      }
      const contentType = header('content-type');
      const maxBytes = policy.maxBytes ?? this.options.maxResponseBytes;
      if (Number(header('content-length')) > maxBytes) {
        discard(response.body);
        ok = false;
        throw new OutboundError('too_large', `${url.host} answered ${Math.round(Number(header('content-length')) / 1024)} KB, over the ${Math.round(maxBytes / 1024)} KB cap`, url.href);
      }
      if (policy.accept === 'html' && contentType && contentKind(contentType, Buffer.alloc(0)) !== 'html' && status < 300) {
        discard(response.body);
        throw new OutboundError('unsupported_content', `${url.href} is ${contentType.split(';')[0]}, not an HTML page`, url.href);
      }
      let body: Buffer;
      try {
        body = await readCapped(response.body, maxBytes, url.href);
      } catch (error) {
        ok = false;
        throw error;
      }
      bytes = body.length;
      const fetched: FetchedResponse = { url: url.href, status, contentType, kind: contentKind(contentType, body), body };
      if (isRetryableStatus(status)) return { retryAfter: retryAfterMs(header('retry-after')), response: fetched };
      return fetched;
    } catch (error) {
      ok = false;
      const failure = this.explain(error, url, timeout, signal);
      // The guard refused the connection: nothing left this host.
      if (failure.code === 'blocked_address') sent = false;
      throw failure;
    } finally {
      if (sent && policy.countsAsUsage !== false) this.options.usage.record({ domain: usageDomain(url.hostname), ok, ms: performance.now() - started, bytes, proxied: viaProxy });
    }
  }

  private explain(error: unknown, url: URL, timeout: AbortSignal, signal?: AbortSignal): OutboundError {
    if (error instanceof OutboundError) return error;
    if (signal?.aborted) return new OutboundError('aborted', 'The fetch was cancelled', url.href);
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (timeout.aborted || /TIMEOUT/.test(code)) {
      return new OutboundError('timeout', `${url.host} did not answer within ${Math.round(this.options.totalTimeoutMs / 1000)} s`, url.href);
    }
    const failure = new OutboundError('network', `Could not fetch ${url.host}: ${code || (error as Error).message}`, url.href);
    failure.cause = error;
    return failure;
  }
}
