import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { HostLookup, ResolvedAddress } from '@leadforge/kit/outbound';
import type { ConnectRoute } from '@leadforge/kit/outbound';
import { generateBusinessSites, type BusinessSite } from './businessSites.ts';
import { HOSTILE_HOSTS, hostileAnswer } from './hostilePages.ts';
import { loadRealSiteHosts, realSitePage, type RealSiteHost } from './realSiteHosts.ts';
import {
  decodoGoogleMaps, decodoSubscriptions, googleSearchText, nominatimSearch, overpassInterpreter, type FixturePlace,
} from './providerAnswers.ts';

/** Hosts that misbehave in one way each. */
export const FAULT_HOSTS = {
  hang: 'hang.fixture.test',
  rateLimited: 'ratelimited.fixture.test',
  flaky: 'flaky.fixture.test',
  redirectLoopback: 'redirect-loopback.fixture.test',
  redirectMetadata: 'redirect-metadata.fixture.test',
  redirectPrivate: 'redirect-private.fixture.test',
  huge: 'huge.fixture.test',
  binary: 'binary.fixture.test',
  robotsDisallow: 'norobots.fixture.test',
  crawlDelay: 'crawldelay.fixture.test',
  down: 'down.fixture.test',
} as const;

export interface FixtureWebOptions {
  /** Generated business sites (site-000.fixture.test ...). */
  sites?: number;
  /** Added before every answer, sites and APIs alike. */
  latencyMs?: number;
  /** Real sites of test/fixtures/real-sites listed among the places. */
  includeRealSites?: boolean;
  /** Fault hosts listed among the places too (they always answer when asked directly). */
  includeFaultPlaces?: boolean;
  /** The nested-page hosts of hostilePages.ts listed among the places (they always answer when asked directly). */
  includeHostilePlaces?: boolean;
  /** Credentials the forward proxy requires; none means it requires none. */
  proxyCredentials?: { username: string; password: string };
  decodoApiKey?: string;
  /** Seconds the rate-limited host asks to wait. */
  retryAfterSeconds?: number;
  /** Every site a home page linking contact, about and impressum pages (the benchmark's sites). */
  uniformSites?: boolean;
  /** Places per geocoded area ("area-N" locations); unset: every location finds every place. */
  placesPerArea?: number;
  /** The address it listens on, in its URLs (default 127.0.0.1; a cluster's node address inside its namespace). */
  host?: string;
}

export interface FixtureWeb {
  port: number;
  origin: string;
  urls: { nominatim: string; overpass: string; googlePlaces: string; decodoScraper: string; decodoApi: string; proxy: string; proxyCheck: string };
  sites: BusinessSite[];
  realSites: RealSiteHost[];
  places: FixturePlace[];
  /** Every fixture host resolves to loopback (tests that allow private networks). */
  loopbackLookup: HostLookup;
  /** Every fixture host resolves to a public address; `route` still brings connections here. */
  publicLookup: HostLookup;
  route: ConnectRoute;
  /** Requests per "host path", e.g. "site-001.fixture.test /contact". */
  hits: Map<string, number>;
  proxied: { connects: number; requests: number; refused: number };
  /** Requests being answered now, and the most at once (a test sets `most` to 0 before what it measures). */
  atOnce: { now: number; most: number };
  /** Changes `latencyMs` for the answers from now on. */
  setLatency(ms: number): void;
  close(): Promise<void>;
}

export const PUBLIC_LOOKING_ADDRESS = '93.184.215.14';

/** How to reach a fixture web: its provider URLs, its host lookups and its connection route. */
export type FixtureWebAddress = Pick<FixtureWeb, 'port' | 'origin' | 'urls' | 'loopbackLookup' | 'publicLookup' | 'route'>;

/** The address of a fixture web listening on `port` (also one started by another process). */
export function fixtureWebAt(port: number, proxyCredentials?: { username: string; password: string }, host = '127.0.0.1'): FixtureWebAddress {
  const origin = `http://${host}:${port}`;
  const isFixtureHost = (hostname: string) => hostname.endsWith('.fixture.test');
  const lookupWith = (address: string): HostLookup => async (hostname) => {
    if (!isFixtureHost(hostname)) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return [{ address, family: 4 } satisfies ResolvedAddress];
  };
  const credentials = proxyCredentials ? `${encodeURIComponent(proxyCredentials.username)}:${encodeURIComponent(proxyCredentials.password)}@` : '';
  return {
    port,
    origin,
    urls: {
      nominatim: `${origin}/nominatim`,
      overpass: `${origin}/overpass`,
      googlePlaces: `${origin}/google`,
      decodoScraper: `${origin}/decodo-scraper`,
      decodoApi: `${origin}/decodo-api`,
      proxy: `http://${credentials}${host}:${port}`,
      proxyCheck: 'http://ip-check.fixture.test/json',
    },
    loopbackLookup: lookupWith(host),
    publicLookup: lookupWith(PUBLIC_LOOKING_ADDRESS),
    route: () => ({ host, port }),
  };
}

// Unref'd: a hanging answer must not keep a finished test process alive.
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

export async function startFixtureWeb(options: FixtureWebOptions = {}): Promise<FixtureWeb> {
  const listenHost = options.host ?? '127.0.0.1';
  const sites = generateBusinessSites(options.sites ?? 50, options.uniformSites);
  const siteByHost = new Map(sites.map((site) => [site.host, site]));
  const realSites = options.includeRealSites ? loadRealSiteHosts() : [];
  const realByHost = new Map(realSites.map((site) => [site.host, site]));
  const hits = new Map<string, number>();
  const proxied = { connects: 0, requests: 0, refused: 0 };
  const atOnce = { now: 0, most: 0 };
  let latency = options.latencyMs ?? 0;
  let port = 0;

  const places: FixturePlace[] = sites.map((site) => ({
    id: site.index, name: site.name, website: `http://${site.host}/`, city: site.city, phone: site.placeTags.phone, email: site.placeTags.email,
  }));
  if (options.includeRealSites) {
    const { countryOfTown } = await import('../realSites/placeCountry.ts');
    realSites.forEach((site, i) => places.push({ id: 5000 + i, name: site.name, website: `http://${site.host}/`, city: site.city ?? undefined, country: site.truth.country ?? countryOfTown(site.city) }));
  }
  if (options.includeFaultPlaces) {
    Object.values(FAULT_HOSTS).forEach((host, i) => places.push({ id: 9000 + i, name: `Fault ${host}`, website: `http://${host}/`, city: 'London' }));
  }

  if (options.includeHostilePlaces) {
    [HOSTILE_HOSTS.nested, HOSTILE_HOSTS.nestedContact].forEach((host, i) => places.push({ id: 9500 + i, name: `Hostile ${host}`, website: `http://${host}/`, city: 'London' }));
  }

  const proxyAllowed = (header: string | undefined): boolean => {
    if (!options.proxyCredentials) return true;
    const expected = Buffer.from(`${options.proxyCredentials.username}:${options.proxyCredentials.password}`).toString('base64');
    return header === `Basic ${expected}`;
  };

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  const html = (res: http.ServerResponse, body: string, status = 200) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body);
  };
  const readBody = (req: http.IncomingMessage) => new Promise<string>((resolve) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => { data += chunk; });
    req.on('end', () => resolve(data));
  });

  async function providerApi(req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
    const body = req.method === 'POST' ? await readBody(req) : '';
    if (url.pathname === '/nominatim/search') return json(res, 200, nominatimSearch(url.searchParams.get('q') ?? ''));
    if (url.pathname === '/overpass/api/interpreter') {
      const query = new URLSearchParams(body).get('data') ?? url.searchParams.get('data') ?? '';
      return json(res, 200, overpassInterpreter(places, query, options.placesPerArea));
    }
    if (url.pathname === '/google/v1/places:searchText') {
      if (!req.headers['x-goog-api-key']) return json(res, 403, { error: { code: 403, status: 'PERMISSION_DENIED', message: 'The request is missing a valid API key.' } });
      return json(res, 200, googleSearchText(places, JSON.parse(body || '{}')));
    }
    if (url.pathname === '/decodo-scraper/v2/scrape') {
      if (!/^Basic \S+/.test(req.headers.authorization ?? '')) return json(res, 401, { message: 'Unauthorized' });
      return json(res, 200, decodoGoogleMaps(places, JSON.parse(body || '{}')));
    }
    if (url.pathname === '/decodo-api/v2/subscriptions') {
      if (!options.decodoApiKey || req.headers.authorization !== options.decodoApiKey) return json(res, 401, { message: 'Unauthorized' });
      return json(res, 200, decodoSubscriptions());
    }
    return json(res, 404, { error: 'no such fixture endpoint' });
  }

  async function faultSite(host: string, req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<boolean> {
    const key = `${host} ${url.pathname}`;
    const seen = hits.get(key) ?? 0;
    // Faults are in the pages; robots.txt is simply missing, except where it is the fault.
    if (url.pathname === '/robots.txt' && host !== FAULT_HOSTS.robotsDisallow && host !== FAULT_HOSTS.crawlDelay && Object.values(FAULT_HOSTS).includes(host as never)) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return true;
    }
    switch (host) {
      case FAULT_HOSTS.hang:
        await sleep(120_000);
        html(res, '<p>too late</p>');
        return true;
      case FAULT_HOSTS.rateLimited:
        if (url.pathname !== '/robots.txt' && seen <= 1) {
          res.writeHead(429, { 'retry-after': String(options.retryAfterSeconds ?? 1), 'content-type': 'text/plain' });
          res.end('slow down');
        } else html(res, '<h1>Patient Dental</h1><p>Email: <a href="mailto:patient@ratelimited.fixture.test">patient@ratelimited.fixture.test</a></p>');
        return true;
      case FAULT_HOSTS.flaky:
        if (url.pathname !== '/robots.txt' && seen <= 1) {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end('internal error');
        } else html(res, '<h1>Flaky Dental</h1><p>Call 020 7946 0999</p>');
        return true;
      case FAULT_HOSTS.redirectLoopback:
        res.writeHead(302, { location: `http://127.0.0.1:${port}/` });
        res.end();
        return true;
      case FAULT_HOSTS.redirectMetadata:
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/' });
        res.end();
        return true;
      case FAULT_HOSTS.redirectPrivate:
        res.writeHead(301, { location: 'http://10.0.0.5/admin' });
        res.end();
        return true;
      case FAULT_HOSTS.huge: {
        res.writeHead(200, { 'content-type': 'text/html' });
        const chunk = Buffer.alloc(64 * 1024, 'a');
        let sent = 0;
        const pump = () => {
          while (sent < 50 * 1024 * 1024 && !res.destroyed) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
        return true;
      }
      case FAULT_HOSTS.binary:
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.end(Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) % 256)));
        return true;
      case FAULT_HOSTS.robotsDisallow:
        if (url.pathname === '/robots.txt') {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end('User-agent: *\nDisallow: /\n');
        } else html(res, '<p>Email: hidden@norobots.fixture.test</p>');
        return true;
      case FAULT_HOSTS.crawlDelay:
        if (url.pathname === '/robots.txt') {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end('User-agent: *\nCrawl-delay: 1\n');
        } else html(res, '<h1>Slow Crawl</h1><p><a href="/contact">Contact</a> <a href="/about">About</a></p><p>Tel 020 7946 0888</p>');
        return true;
      case FAULT_HOSTS.down:
        req.socket.destroy();
        return true;
      default:
        return false;
    }
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const absolute = /^https?:\/\//i.test(req.url ?? '');
    if (absolute) {
      if (!proxyAllowed(req.headers['proxy-authorization'])) {
        proxied.refused++;
        res.writeHead(407, { 'proxy-authenticate': 'Basic realm="fixture"' });
        return void res.end();
      }
      proxied.requests++;
    }
    const url = new URL(req.url ?? '/', absolute ? undefined : `http://${req.headers.host ?? '127.0.0.1'}`);
    const host = url.hostname.toLowerCase();
    if (latency) await sleep(latency);
    const key = `${host} ${url.pathname}`;
    try {
      if (host === '127.0.0.1' || host === 'localhost' || host === listenHost) {
        if (url.pathname === '/') return html(res, '<h1>fixture web</h1>');
        return await providerApi(req, res, url);
      }
      if (host === 'ip-check.fixture.test') return json(res, 200, { proxy: { ip: PUBLIC_LOOKING_ADDRESS }, isp: { isp: 'Fixture ISP' }, city: { name: 'London' } });
      if (await faultSite(host, req, res, url)) return;
      const hostile = url.pathname === '/robots.txt' ? undefined : hostileAnswer(host, url.pathname);
      if (hostile) return void (res.writeHead(200, { 'content-type': hostile.contentType }), res.end(hostile.body));
      const site = siteByHost.get(host);
      if (site) {
        if (url.pathname === '/robots.txt') {
          if (!site.robotsTxt) return void (res.writeHead(404, { 'content-type': 'text/plain' }), res.end('not found'));
          res.writeHead(200, { 'content-type': 'text/plain' });
          return void res.end(site.robotsTxt);
        }
        const page = site.pages.get(url.pathname);
        return page ? html(res, page) : html(res, '<h1>Not found</h1>', 404);
      }
      const real = realByHost.get(host);
      if (real) {
        const page = realSitePage(real, url.pathname);
        return page ? html(res, page) : html(res, 'not found', 404);
      }
      html(res, '<h1>Unknown host</h1>', 404);
    } finally {
      hits.set(key, (hits.get(key) ?? 0) + 1);
    }
  }

  const server = http.createServer((req, res) => {
    atOnce.now++;
    atOnce.most = Math.max(atOnce.most, atOnce.now);
    handle(req, res).catch((err) => {
      if (!res.headersSent) json(res, 500, { error: String(err) });
      else res.destroy();
    }).finally(() => { atOnce.now--; });
  });
  // The forward proxy's tunnels: every fixture host lives on this very server.
  server.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    if (!proxyAllowed(req.headers['proxy-authorization'])) {
      proxied.refused++;
      socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="fixture"\r\n\r\n');
      return;
    }
    proxied.connects++;
    const upstream = net.connect(port, listenHost, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, listenHost, resolve));
  port = (server.address() as AddressInfo).port;
  return {
    ...fixtureWebAt(port, options.proxyCredentials, listenHost),
    sites,
    realSites,
    places,
    hits,
    proxied,
    atOnce,
    setLatency(ms) {
      latency = ms;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
