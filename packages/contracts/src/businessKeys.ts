import { parse } from 'tldts';

/**
 * What a website is matched by: its registrable domain (`shop.example.co.uk` -> `example.co.uk`,
 * from the Public Suffix List), or its host when it has none (an IP address, or a name under a suffix
 * the list does not know, such as `.test`). Lower-case, without `www.`. Undefined when unusable.
 */
export function siteOf(address: string): string | undefined {
  const text = address.trim().toLowerCase();
  if (!text) return undefined;
  let host: string;
  try {
    host = new URL(/^[a-z][a-z0-9+.-]*:\/\//.test(text) ? text : `http://${text}`).hostname;
  } catch {
    return undefined;
  }
  host = host.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (!host) return undefined;
  const parsed = parse(host, { allowPrivateDomains: true });
  if (parsed.isIp) return host;
  if (!parsed.hostname || !parsed.hostname.includes('.')) return undefined;
  if ((parsed.isIcann || parsed.isPrivate) && parsed.domain) return parsed.domain;
  // A suffix the list does not know: the host itself is the most a match can safely cover.
  if (parsed.isIcann === false && parsed.isPrivate === false && parsed.publicSuffix !== parsed.hostname) return parsed.hostname.replace(/^www\./, '');
  return undefined;
}

/**
 * What one business is known by, wherever it was found: its place, its website, its phone, and its
 * name where it stands. The lead engine merges a search's listings by these keys and lead intake
 * checks and claims a user's businesses by them ("never pay twice"), so a business found by Google in
 * one search and by OpenStreetMap in the next is one business to both.
 */
export interface BusinessFacts {
  /** The engine's stable key of the place, `<source>:<id>` (`osm:node/1`, `google:ChIJ...`). */
  placeKey: string;
  /** The place keys of the other sources' listings of the business. */
  mergedKeys?: readonly string[];
  /** An absolute http(s) address; anything else gives no site key. */
  website?: string;
  /** International (E.164, spaces and punctuation allowed); a national number gives no phone key. */
  phone?: string;
  name?: string;
  lat?: number;
  lon?: number;
}

/** Two listings this close with the same name are one business listed twice. */
const SAME_PLACE_METRES = 100;

/**
 * The keys of a business: `place:<source>:<id>` (its own listing's first, then the other sources');
 * `site:<registrable domain>`, or a platform's page (`site:facebook.com/yourshop`: two shops on one
 * platform stay two, see PAGE_PLATFORMS); `phone:<E.164>`; `near:<normalised name>@<lat>,<lon>`,
 * which matches the same name within SAME_PLACE_METRES (see matchesNear), never by its text.
 */
export function businessKeysOf(business: BusinessFacts): string[] {
  const keys = [business.placeKey, ...(business.mergedKeys ?? [])].map((placeKey) => `place:${placeKey}`);
  const site = business.website ? siteKeyOf(business.website) : undefined;
  if (site) keys.push(site);
  const phone = business.phone ? e164Of(business.phone) : undefined;
  if (phone) keys.push(`phone:${phone}`);
  const near = business.name ? nearKeyOf(business.name, business.lat, business.lon) : undefined;
  if (near) keys.push(near);
  return keys;
}

/**
 * Sites whose pages are many businesses' (social networks, link pages, Google Sites): a page there
 * is a business by its path (`facebook.com/yourshop`), and the bare site is none. Any other website
 * is its business by its registrable domain, whatever the page (`example.com/kontakt` is `example.com`).
 */
const PAGE_PLATFORMS = new Set([
  'facebook.com', 'fb.com', 'fb.me', 'instagram.com', 'instagr.am', 'linkedin.com', 'twitter.com', 'x.com',
  'youtube.com', 'tiktok.com', 'linktr.ee', 'google.com', 'yelp.com', 'wa.me',
]);

function siteKeyOf(website: string): string | undefined {
  let url: URL;
  try {
    url = new URL(website.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const site = siteOf(url.toString());
  if (!site) return undefined;
  if (!PAGE_PLATFORMS.has(site)) return `site:${site}`;
  const path = url.pathname.toLowerCase().replace(/\/+$/, '');
  return path ? `site:${site}${path}` : undefined;
}

/** A name as listings of one business share it: accents, case and punctuation aside. */
const normalisedName = (name: string): string =>
  name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim().slice(0, 200);

/** The name-and-position key (position to 5 decimals, about a metre); undefined without a usable position or name. */
function nearKeyOf(name: string, lat: number | undefined, lon: number | undefined): string | undefined {
  if (lat === undefined || lon === undefined || !Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180) return undefined;
  const normalised = normalisedName(name);
  return normalised ? `near:${normalised}@${lat.toFixed(5)},${lon.toFixed(5)}` : undefined;
}

export interface NearPoint {
  name: string;
  lat: number;
  lon: number;
}

/** The name and position a `near:` key holds; undefined for any other key. */
export function nearPointOf(key: string): NearPoint | undefined {
  const match = /^near:(.+)@(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)$/.exec(key);
  return match ? { name: match[1], lat: Number(match[2]), lon: Number(match[3]) } : undefined;
}

/** Metres between two points (haversine). */
function metresBetween(latA: number, lonA: number, latB: number, lonB: number): number {
  const rad = Math.PI / 180;
  const dLat = (latB - latA) * rad;
  const dLon = (lonB - lonA) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(latA * rad) * Math.cos(latB * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.sqrt(h));
}

/** Two name-and-position points are one business: the same name within SAME_PLACE_METRES. */
export const matchesNear = (a: NearPoint, b: NearPoint): boolean =>
  a.name === b.name && metresBetween(a.lat, a.lon, b.lat, b.lon) <= SAME_PLACE_METRES;

/** Businesses known by their keys: one is known when any of its keys matches (a `near:` key by name and distance). */
export class KnownBusinesses {
  private readonly exact = new Set<string>();
  private readonly near = new Map<string, NearPoint[]>();

  constructor(keys: Iterable<string> = []) {
    for (const key of keys) this.add(key);
  }

  get size(): number {
    return this.exact.size + [...this.near.values()].reduce((sum, points) => sum + points.length, 0);
  }

  add(key: string): void {
    const point = nearPointOf(key);
    if (!point) return void this.exact.add(key);
    const points = this.near.get(point.name) ?? [];
    points.push(point);
    this.near.set(point.name, points);
  }

  has(keys: readonly string[]): boolean {
    return keys.some((key) => {
      const point = nearPointOf(key);
      if (!point) return this.exact.has(key);
      return (this.near.get(point.name) ?? []).some((known) => matchesNear(known, point));
    });
  }
}

/** A phone number as E.164 (`+49 (3322) 42-88 333` -> `+4933224288333`), or undefined if it is not international. */
export function e164Of(phone: string): string | undefined {
  const compact = phone.trim().replace(/[\s().\-/]/g, '').replace(/^00/, '+');
  return /^\+[1-9]\d{5,14}$/.test(compact) ? compact : undefined;
}

/** What a lead as the engine sends it tells of its business (EngineLead's fields). */
export interface LeadBusinessFields {
  key: string;
  merged_keys?: string[];
  website: string;
  phone: string;
  company: string;
  lat?: number;
  lon?: number;
}

/** The keys of a lead's business, as the engine's merge made them of its listing. */
export const businessKeysOfLead = (lead: LeadBusinessFields): string[] =>
  businessKeysOf({ placeKey: lead.key, mergedKeys: lead.merged_keys, website: lead.website, phone: lead.phone, name: lead.company, lat: lead.lat, lon: lead.lon });
