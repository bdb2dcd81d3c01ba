import { siteOf } from '@leadforge/contracts/businessKeys.ts';

export { businessKeysOf, businessKeysOfLead, e164Of, siteOf } from '@leadforge/contracts/businessKeys.ts';

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
