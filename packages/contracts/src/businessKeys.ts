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
 * The keys one business is known by for a user's ownership: its place (the engine's stable key) and
 * its website. A website with a path (a page on a shared platform, `facebook.com/yourshop`) counts
 * by site and path, so two shops on one platform stay two businesses.
 */
export function businessKeysOf(placeKey: string, website: string): string[] {
  const keys = [`place:${placeKey}`];
  if (!website) return keys;
  const site = siteOf(website);
  if (!site) return keys;
  const path = new URL(website).pathname.toLowerCase().replace(/\/+$/, '');
  keys.push(`site:${site}${path}`);
  return keys;
}

/**
 * The keys the engine can tell of a place before fetching its site: its place key and, for an
 * absolute http(s) website, the site key, exactly as lead intake makes them from the delivered lead.
 */
export function placeBusinessKeysOf(placeKey: string, website: string | undefined): string[] {
  let url: URL | undefined;
  try {
    url = website ? new URL(website.trim()) : undefined;
  } catch {
    url = undefined;
  }
  return businessKeysOf(placeKey, url && (url.protocol === 'http:' || url.protocol === 'https:') ? url.toString() : '');
}
