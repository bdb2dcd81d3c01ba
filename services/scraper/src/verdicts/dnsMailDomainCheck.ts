import { promises as dns } from 'node:dns';
import type { MailDomainCheck } from './mailDomainCheck.ts';

/** The two look-ups the check needs; node:dns/promises by default. */
export interface MailResolver {
  resolveMx(domain: string): Promise<{ exchange: string; priority: number }[]>;
  resolve4(domain: string): Promise<string[]>;
}

const NO_RECORD = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME']);

/** A resolver asking the given servers ("127.0.0.1:5353"), or the system's when none are given. */
export function mailResolverFor(servers: string[], timeoutMs: number): MailResolver {
  const resolver = new dns.Resolver({ timeout: timeoutMs, tries: 1 });
  if (servers.length) resolver.setServers(servers);
  return resolver;
}

/** The records, [] when the name definitely has none, undefined when the resolver could not tell. */
async function records<T>(lookup: () => Promise<T[]>, timeoutMs: number): Promise<T[] | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => { timer = setTimeout(resolve, timeoutMs, undefined); });
  try {
    return await Promise.race([lookup(), late]);
  } catch (error) {
    return NO_RECORD.has((error as NodeJS.ErrnoException).code ?? '') ? [] : undefined;
  } finally {
    clearTimeout(timer);
  }
}

export interface MailDomainLookupOptions {
  ttlMs?: number;
  /** A look-up that takes longer is `unknown`. */
  timeoutMs?: number;
}

/** Where a domain's mail goes: its mail hosts, best (lowest preference) first. */
export type MailHosts = { status: 'accepts'; hosts: string[] } | { status: 'refuses' } | { status: 'unknown' };
export type MailHostsLookup = (domain: string) => Promise<MailHosts>;

/**
 * Whether a domain takes mail, and where: its MX hosts by preference, or (RFC 5321) the domain
 * itself when it has no MX but an address record; a "null MX" (RFC 7505) refuses mail. Each domain's
 * answer is remembered for `ttlMs`; time-outs and server failures are `unknown`, never a refusal.
 */
export function createMailDomainLookup(resolver: MailResolver = dns, options: MailDomainLookupOptions = {}): MailHostsLookup {
  const ttlMs = options.ttlMs ?? 6 * 60 * 60 * 1000;
  const timeoutMs = options.timeoutMs ?? 5000;
  const cache = new Map<string, { hosts: Promise<MailHosts>; expires: number }>();
  return (domain) => {
    const key = domain.toLowerCase();
    const cached = cache.get(key);
    if (cached && cached.expires > Date.now()) return cached.hosts;
    const hosts = (async (): Promise<MailHosts> => {
      const mx = await records(() => resolver.resolveMx(key), timeoutMs);
      if (mx === undefined) return { status: 'unknown' };
      const exchanges = mx.filter((record) => record.exchange !== '' && record.exchange !== '.');
      if (mx.length > 0) {
        return exchanges.length
          ? { status: 'accepts', hosts: exchanges.sort((a, b) => a.priority - b.priority).map((record) => record.exchange.toLowerCase()) }
          : { status: 'refuses' };
      }
      const addresses = await records(() => resolver.resolve4(key), timeoutMs);
      if (addresses === undefined) return { status: 'unknown' };
      return addresses.length > 0 ? { status: 'accepts', hosts: [key] } : { status: 'refuses' };
    })();
    cache.set(key, { hosts, expires: Date.now() + ttlMs });
    return hosts;
  };
}

/** The lookup as a keep-or-drop check: only a definite refusal drops an address, so a flaky resolver costs no email. */
export const deliverableBy = (lookup: MailHostsLookup): MailDomainCheck => async (domain) => (await lookup(domain)).status !== 'refuses';

/** An MX check keeping addresses unless their domain definitely refuses mail. */
export function createDnsMailDomainCheck(resolver: MailResolver = dns, ttlMs = 6 * 60 * 60 * 1000): MailDomainCheck {
  return deliverableBy(createMailDomainLookup(resolver, { ttlMs }));
}
