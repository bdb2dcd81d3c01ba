import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { asyncRequestListener } from '@leadforge/testing';
import type { HostLookup, ResolvedAddress } from '@leadforge/kit/outbound';
import type { ConnectRoute } from '@leadforge/kit/outbound';

/**
 * A simulated world for coverage tests and the coverage benchmark: towns with real-shaped
 * boundaries, dentists in and around them, and stand-ins for the places providers that keep the
 * real providers' rules and caps (Nominatim with `polygon_geojson`, Overpass with a bbox or a
 * `poly:` filter, Google Places (New) Text Search: pageSize <= 20, 60 places a query, page tokens,
 * `locationRestriction.rectangle`), each counting its requests, and every business's website on
 * loopback (`dent-NNNN.test`, by Host header: each its own registrable domain).
 */

/** [longitude, latitude], as GeoJSON has it. */
type Position = [number, number];

export interface Town {
  name: string;
  /** The outer ring of its boundary, closed. */
  ring: Position[];
  /** [west, south, east, north]. */
  bbox: [number, number, number, number];
}

export interface WorldBusiness {
  index: number;
  name: string;
  lat: number;
  lon: number;
  /** The town whose boundary holds it; undefined: in no town (the city's bounding box, outside its boundary). */
  town?: string;
  website?: string;
  /** E.164. */
  phone?: string;
  /** What the website shows (and so what a lead can carry). */
  siteEmail?: string;
  sitePhone?: string;
  /** Reachable by email or phone: what a lead needs. */
  contactable: boolean;
  /** Known to OpenStreetMap, and which of its contacts OSM's tags carry. */
  osm?: { id: number; tags: 'website' | 'phone' | 'name' };
  /** Known to Google Places. */
  googleId: string;
  /** Google's order of relevance: higher first. */
  prominence: number;
}

export type WorldProvider = 'nominatim' | 'overpass' | 'google';

export interface SimulatedWorld {
  origin: string;
  urls: { nominatim: string; overpass: string; googlePlaces: string };
  city: Town;
  smallTown: Town;
  businesses: WorldBusiness[];
  /** Contactable businesses inside a town's boundary. */
  contactableIn(town: string): WorldBusiness[];
  businessOfHost(host: string): WorldBusiness | undefined;
  requests: Record<WorldProvider, number>;
  /** A provider named here answers every request with an error (as when its key is refused). */
  failing: Set<WorldProvider>;
  /** The provider answers its next `count` requests with that error (a key refused for a moment). */
  failNext(provider: WorldProvider, count: number): void;
  /** Businesses (by index) whose OpenStreetMap listing gives another of their numbers, a second line, instead of the one Google lists. */
  osmSecondLines: Set<number>;
  lookup: HostLookup;
  route: ConnectRoute;
  resetCounts(): void;
  /** Reads the counts of a world another process serves (nothing to do for one served here). */
  refreshCounts(): Promise<void>;
  close(): Promise<void>;
}

export const WORLD_CITY = 'Florești';
export const WORLD_SMALL_TOWN = 'Gilău';
const BIG_NEIGHBOUR = 'Cluj-Napoca';
const INDUSTRY = 'dentist';

// Florești's real boundary (Nominatim, polygon_geojson), from the recorded answer.
const FLORESTI = JSON.parse(fs.readFileSync(new URL('../../services/scraper/test/fixtures/nominatim/search-floresti-ro.geojson', import.meta.url), 'utf8')) as {
  features: { bbox: [number, number, number, number]; geometry: { coordinates: Position[][] } }[];
};

/** A closed ring of `corners` points around a centre, radii varying so it is not a regular shape. */
function irregularRing(lon: number, lat: number, radius: number, corners: number): Position[] {
  const ring: Position[] = [];
  for (let k = 0; k < corners; k++) {
    const angle = (2 * Math.PI * k) / corners;
    const r = radius * (0.75 + 0.25 * Math.sin(3 * angle));
    ring.push([lon + r * Math.cos(angle), lat + r * Math.sin(angle) * 0.7]);
  }
  ring.push(ring[0]);
  return ring;
}

function townOf(name: string, ring: Position[]): Town {
  const lons = ring.map((p) => p[0]);
  const lats = ring.map((p) => p[1]);
  return { name, ring, bbox: [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)] };
}

const inRing = (ring: Position[], lon: number, lat: number) => booleanPointInPolygon([lon, lat], { type: 'Polygon', coordinates: [ring] });
const inBox = ([w, s, e, n]: number[], lon: number, lat: number) => lon >= w && lon <= e && lat >= s && lat <= n;

/** mulberry32: the same world on every run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SURNAMES = ['Pop', 'Muresan', 'Rus', 'Moldovan', 'Lazar', 'Suciu', 'Campean', 'Sabau', 'Crisan', 'Bogdan', 'Pop', 'Oltean'];

/** Businesses spread over the world; one in ten cannot be reached (no website contact, no phone). */
function generateBusinesses(towns: Town[], cityBox: number[], counts: { town: string | undefined; count: number }[]): WorldBusiness[] {
  const random = seededRandom(24);
  const businesses: WorldBusiness[] = [];
  for (const { town, count } of counts) {
    const area = towns.find((candidate) => candidate.name === town);
    for (let made = 0; made < count;) {
      const box = area?.bbox ?? cityBox;
      const lon = box[0] + random() * (box[2] - box[0]);
      const lat = box[1] + random() * (box[3] - box[1]);
      const inside = area ? inRing(area.ring, lon, lat) : !towns.some((candidate) => inRing(candidate.ring, lon, lat));
      if (!inside) continue;
      made++;
      const index = businesses.length;
      const slug = `dent-${String(index).padStart(4, '0')}`;
      const phone = `+40264${String(300000 + index)}`;
      // Kinds, by index: 0-4 a site with email and phone, 5-6 a site with email only, 7 a phone and no
      // site, 8 a site without contacts but a listed phone, 9 a site without contacts and no phone.
      const kind = index % 10;
      const hasSite = kind !== 7;
      const business: WorldBusiness = {
        index,
        name: `Cabinet Stomatologic ${SURNAMES[index % SURNAMES.length]} ${index}`,
        lat,
        lon,
        town,
        website: hasSite ? `http://${slug}.test/` : undefined,
        phone: kind === 5 || kind === 6 || kind === 9 ? undefined : phone,
        siteEmail: kind <= 6 ? `contact@${slug}.test` : undefined,
        sitePhone: kind <= 4 ? phone : undefined,
        contactable: kind !== 9,
        googleId: `ChIJworld${String(index).padStart(6, '0')}`,
        prominence: random(),
      };
      // OSM knows seven in ten, some only by name (merged with Google's by name and position).
      const osmDraw = random();
      if (osmDraw < 0.7) business.osm = { id: 9_000_000 + index, tags: osmDraw < 0.3 ? 'website' : osmDraw < 0.55 ? 'phone' : 'name' };
      businesses.push(business);
    }
  }
  return businesses;
}

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function sitePage(business: WorldBusiness): string {
  const contacts = [
    business.siteEmail ? `<p>Email: <a href="mailto:${business.siteEmail}">${business.siteEmail}</a></p>` : '',
    business.sitePhone ? `<p>Telefon: <a href="tel:${business.sitePhone}">${business.sitePhone}</a></p>` : '',
  ].join('');
  return `<!doctype html><html lang="ro"><head><meta charset="utf-8"><title>${esc(business.name)}</title></head>` +
    `<body><h1>${esc(business.name)}</h1><p>Stomatologie generală și estetică.</p>${contacts}</body></html>`;
}

const fold = (text: string) => text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

/** Overpass QL areas: `(south,west,north,east)` boxes and `(poly:"lat lon ...")` polygons. */
function overpassAreas(ql: string): ((lon: number, lat: number) => boolean)[] {
  const areas: ((lon: number, lat: number) => boolean)[] = [];
  for (const match of ql.matchAll(/\(poly:"([^"]+)"\)/g)) {
    const numbers = match[1].trim().split(/\s+/).map(Number);
    const ring: Position[] = [];
    for (let k = 0; k + 1 < numbers.length; k += 2) ring.push([numbers[k + 1], numbers[k]]);
    if (ring.length && (ring[0][0] !== ring.at(-1)![0] || ring[0][1] !== ring.at(-1)![1])) ring.push(ring[0]);
    areas.push((lon, lat) => inRing(ring, lon, lat));
  }
  for (const match of ql.matchAll(/\((-?[\d.]+),(-?[\d.]+),(-?[\d.]+),(-?[\d.]+)\)/g)) {
    const [s, w, n, e] = match.slice(1, 5).map(Number);
    areas.push((lon, lat) => inBox([w, s, e, n], lon, lat));
  }
  return areas;
}

const GOOGLE_CAP = 60;
const GOOGLE_MAX_PAGE = 20;

interface GoogleBody {
  textQuery?: unknown;
  pageSize?: unknown;
  pageToken?: unknown;
  locationRestriction?: { rectangle?: { low?: { latitude?: number; longitude?: number }; high?: { latitude?: number; longitude?: number } } };
}

const googleError = (code: number, status: string, message: string) => ({ status: code, body: { error: { code, status, message } } });

/**
 * Starts the world's server, or (`servedAt`) describes one another process serves on that port
 * (the benchmark keeps it out of the busy product's process): the same businesses, its URLs and
 * routes, and `requests` as that server last said (`refreshCounts`).
 */
export async function startSimulatedWorld(options: { latencyMs?: number; servedAt?: number } = {}): Promise<SimulatedWorld> {
  const city = townOf(WORLD_CITY, FLORESTI.features[0].geometry.coordinates[0]);
  const smallTown = townOf(WORLD_SMALL_TOWN, irregularRing(23.33, 46.745, 0.02, 9));
  const neighbour = townOf(BIG_NEIGHBOUR, irregularRing(23.61, 46.77, 0.06, 11));
  const towns = [city, smallTown, neighbour];
  const businesses = generateBusinesses(towns, city.bbox, [
    { town: WORLD_CITY, count: 450 },
    { town: undefined, count: 120 },
    { town: WORLD_SMALL_TOWN, count: 30 },
    { town: BIG_NEIGHBOUR, count: 400 },
  ]);
  const byHost = new Map(businesses.flatMap((b) => (b.website ? [[new URL(b.website).hostname, b] as const] : [])));
  const requests: Record<WorldProvider, number> = { nominatim: 0, overpass: 0, google: 0 };
  const failing = new Set<WorldProvider>();
  const failures = new Map<WorldProvider, number>();
  const refuses = (provider: WorldProvider): boolean => {
    const left = failures.get(provider) ?? 0;
    if (left > 0) failures.set(provider, left - 1);
    return failing.has(provider) || left > 0;
  };
  const osmSecondLines = new Set<number>();
  const osmPhoneOf = (b: WorldBusiness) => (osmSecondLines.has(b.index) ? `+40 264 4${b.phone!.slice(7)}` : b.phone!.replace(/^\+40264/, '+40 264 '));
  const latency = options.latencyMs ?? 0;

  const nominatim = (url: URL) => {
    const q = fold(url.searchParams.get('q') ?? '');
    const town = towns.find((candidate) => q.includes(fold(candidate.name)));
    if (!town) return [];
    const [w, s, e, n] = town.bbox;
    return [{
      place_id: 1000 + towns.indexOf(town), osm_type: 'relation', osm_id: 2000 + towns.indexOf(town), category: 'boundary', type: 'administrative',
      name: town.name, display_name: `${town.name}, Cluj, România`,
      boundingbox: [s, n, w, e].map(String),
      address: { [town === neighbour ? 'city' : 'town']: town.name, county: 'Cluj', country: 'România', country_code: 'ro' },
      ...(url.searchParams.get('polygon_geojson') === '1' ? { geojson: { type: 'Polygon', coordinates: [town.ring] } } : {}),
    }];
  };

  const overpass = (ql: string) => {
    const areas = overpassAreas(ql);
    const limit = Number(/out center tags (\d+)/.exec(ql)?.[1] ?? 1e9);
    const wanted = ql.includes(INDUSTRY);
    const elements = businesses
      .filter((b) => wanted && b.osm && areas.some((inArea) => inArea(b.lon, b.lat)))
      .sort((a, b) => a.osm!.id - b.osm!.id)
      .slice(0, limit)
      .map((b) => ({
        type: 'node', id: b.osm!.id, lat: b.lat, lon: b.lon,
        tags: {
          amenity: 'dentist', name: b.osm!.tags === 'name' ? b.name.toUpperCase() : b.name,
          ...(b.osm!.tags === 'website' && b.website ? { website: b.website } : {}),
          ...(b.osm!.tags === 'phone' && b.phone ? { phone: osmPhoneOf(b) } : {}),
        },
      }));
    return { version: 0.6, generator: 'simulated world', elements };
  };

  const googlePlace = (b: WorldBusiness) => ({
    id: b.googleId,
    displayName: { text: b.name, languageCode: 'ro' },
    formattedAddress: `Strada ${b.index}, ${b.town ?? WORLD_CITY}, România`,
    location: { latitude: b.lat, longitude: b.lon },
    types: ['dentist', 'health', 'point_of_interest', 'establishment'],
    addressComponents: [
      { longText: b.town ?? WORLD_CITY, shortText: b.town ?? WORLD_CITY, types: ['locality', 'political'] },
      { longText: 'România', shortText: 'RO', types: ['country', 'political'] },
    ],
    ...(b.website ? { websiteUri: b.website } : {}),
    ...(b.phone ? { internationalPhoneNumber: `+40 264 ${b.phone.slice(6)}`, nationalPhoneNumber: `0264 ${b.phone.slice(6)}` } : {}),
  });

  const google = (body: GoogleBody): { status: number; body: unknown } => {
    if (typeof body.textQuery !== 'string' || !body.textQuery.trim()) return googleError(400, 'INVALID_ARGUMENT', 'textQuery is required.');
    const pageSize = body.pageSize === undefined ? GOOGLE_MAX_PAGE : Number(body.pageSize);
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > GOOGLE_MAX_PAGE) return googleError(400, 'INVALID_ARGUMENT', `pageSize must be between 1 and ${GOOGLE_MAX_PAGE}.`);
    const rectangle = body.locationRestriction?.rectangle;
    const query = JSON.stringify({ textQuery: body.textQuery, rectangle });
    let offset = 0;
    if (body.pageToken !== undefined) {
      const token = JSON.parse(Buffer.from(String(body.pageToken), 'base64url').toString() || '{}') as { offset?: number; query?: string };
      if (token.query !== query || !Number.isInteger(token.offset)) return googleError(400, 'INVALID_ARGUMENT', 'The page token does not belong to this request.');
      offset = token.offset!;
    }
    const matching = fold(body.textQuery).includes(INDUSTRY) ? businesses : [];
    let ranked: WorldBusiness[];
    if (rectangle) {
      const box = [rectangle.low?.longitude, rectangle.low?.latitude, rectangle.high?.longitude, rectangle.high?.latitude].map(Number);
      if (box.some(Number.isNaN)) return googleError(400, 'INVALID_ARGUMENT', 'locationRestriction.rectangle needs low and high.');
      ranked = matching.filter((b) => inBox(box, b.lon, b.lat)).sort((a, b) => b.prominence - a.prominence);
    } else {
      // Without a restriction the text's place biases the results: the nearest and most prominent first, wherever they are.
      const named = towns.find((town) => fold(body.textQuery as string).includes(fold(town.name)));
      const [cLon, cLat] = named ? [(named.bbox[0] + named.bbox[2]) / 2, (named.bbox[1] + named.bbox[3]) / 2] : [0, 0];
      const score = (b: WorldBusiness) => Math.hypot(b.lon - cLon, b.lat - cLat) - b.prominence * 0.05;
      ranked = [...matching].sort((a, b) => score(a) - score(b));
    }
    const capped = ranked.slice(0, GOOGLE_CAP);
    const page = capped.slice(offset, offset + pageSize);
    const next = offset + pageSize < capped.length ? Buffer.from(JSON.stringify({ offset: offset + pageSize, query })).toString('base64url') : undefined;
    return { status: 200, body: { places: page.map(googlePlace), ...(next ? { nextPageToken: next } : {}) } };
  };

  const server = http.createServer(asyncRequestListener(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (latency) await new Promise((resolve) => setTimeout(resolve, latency).unref());
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    };
    const json = (status: number, body: unknown) => send(status, 'application/json', JSON.stringify(body));
    const host = String(req.headers.host ?? '').replace(/:\d+$/, '');
    const url = new URL(req.url ?? '/', 'http://world');
    if (url.pathname === '/_world/requests') return json(200, requests);
    const business = byHost.get(host);
    if (business) {
      if (url.pathname === '/') return send(200, 'text/html; charset=utf-8', sitePage(business));
      return send(404, 'text/plain', 'not found');
    }
    if (url.pathname.startsWith('/nominatim/search')) {
      requests.nominatim++;
      if (refuses('nominatim')) return send(503, 'text/plain', 'Nominatim is down');
      return json(200, nominatim(url));
    }
    if (url.pathname === '/overpass/api/interpreter') {
      requests.overpass++;
      if (refuses('overpass')) return send(400, 'text/html', '<html><body><p><strong style="color:#FF0000">Error</strong>: runtime error: simulated failure</p></body></html>');
      const form = new URLSearchParams(Buffer.concat(chunks).toString());
      return json(200, overpass(form.get('data') ?? ''));
    }
    if (url.pathname === '/google/v1/places:searchText' && req.method === 'POST') {
      requests.google++;
      if (refuses('google')) return json(403, googleError(403, 'PERMISSION_DENIED', 'API key not valid. Please pass a valid API key.').body);
      let body: GoogleBody;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString()) as GoogleBody;
      } catch {
        return json(400, googleError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.').body);
      }
      const answer = google(body);
      return json(answer.status, answer.body);
    }
    send(404, 'text/plain', 'no such host or path in the simulated world');
  }));
  if (options.servedAt === undefined) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = options.servedAt ?? (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    urls: { nominatim: `${origin}/nominatim`, overpass: `${origin}/overpass`, googlePlaces: `${origin}/google` },
    city,
    smallTown,
    businesses,
    contactableIn: (town) => businesses.filter((b) => b.town === town && b.contactable),
    businessOfHost: (hostname) => byHost.get(hostname),
    requests,
    failing,
    failNext: (provider, count) => void failures.set(provider, count),
    osmSecondLines,
    lookup: async (hostname) => {
      if (!byHost.has(hostname)) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return [{ address: '127.0.0.1', family: 4 } satisfies ResolvedAddress];
    },
    route: () => ({ host: '127.0.0.1', port }),
    resetCounts() {
      for (const key of Object.keys(requests) as WorldProvider[]) requests[key] = 0;
    },
    async refreshCounts() {
      if (options.servedAt === undefined) return;
      Object.assign(requests, await (await fetch(`${origin}/_world/requests`)).json());
    },
    close: () => new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

// `node --import tsx test/support/simulatedWorld.ts`: serves the world and prints {"port": N}.
if (process.argv[1] === new URL(import.meta.url).pathname) {
  const world = await startSimulatedWorld();
  console.log(JSON.stringify({ port: Number(new URL(world.origin).port) }));
  process.on('SIGTERM', () => void world.close().then(() => process.exit(0)));
}
