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
 * The host a website opt-out covers (with its subdomains): the address's host, lower-case, without
 * `www.` (the same site by convention). Undefined when the address has no usable site (see siteOf).
 */
export function optOutHostOf(address: string): string | undefined {
  const site = siteOf(address);
  if (!site) return undefined;
  const host = hostOf(address)!;
  const bare = host.replace(/^www\./, '');
  // `www.` stays when taking it away would leave less than the site (`www.co.uk` style names).
  return bare === site || bare.endsWith(`.${site}`) ? bare : host;
}

/**
 * Every host an opt-out could be stored under to cover this one: the host itself and each parent up
 * to its registrable domain, never above (`a.b.example.co.uk` -> itself, `b.example.co.uk`,
 * `example.co.uk`). Bounded by the host's own labels, so a look-up by them stays small.
 */
export function coveringHostsOf(address: string): string[] {
  const host = hostOf(address);
  const site = siteOf(address);
  if (!host || !site) return [];
  const hosts = [host];
  for (let parent = host; parent !== site && parent.includes('.');) {
    parent = parent.slice(parent.indexOf('.') + 1);
    if (parent.length < site.length) break;
    hosts.push(parent);
  }
  return hosts;
}

/** The lower-case host of an address given with or without a scheme, without brackets or a final dot. */
function hostOf(address: string): string | undefined {
  const text = address.trim().toLowerCase();
  try {
    const host = new URL(/^[a-z][a-z0-9+.-]*:\/\//.test(text) ? text : `http://${text}`).hostname;
    return host.replace(/^\[|\]$/g, '').replace(/\.$/, '') || undefined;
  } catch {
    return undefined;
  }
}

/** The site an email address belongs to (`anna@mail.example.de` -> `example.de`). */
export function siteOfEmail(email: string): string | undefined {
  const at = email.lastIndexOf('@');
  return at > 0 ? siteOf(email.slice(at + 1)) : undefined;
}

/** A phone number as E.164 (`+49 (3322) 42-88 333` -> `+4933224288333`), or undefined if it is not international. */
export function e164Of(phone: string): string | undefined {
  const compact = phone.trim().replace(/[\s().\-/]/g, '').replace(/^00/, '+');
  return /^\+[1-9]\d{5,14}$/.test(compact) ? compact : undefined;
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
