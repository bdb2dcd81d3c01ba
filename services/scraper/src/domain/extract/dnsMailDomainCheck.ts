import { promises as dns } from 'node:dns';
import type { MailDomainCheck } from './mailDomainCheck.ts';

/** The two look-ups the check needs; node:dns/promises by default. */
export interface MailResolver {
  resolveMx(domain: string): Promise<{ exchange: string; priority: number }[]>;
  resolve4(domain: string): Promise<string[]>;
}

const NO_RECORD = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME']);

/** The records, [] when the name definitely has none, undefined when the resolver could not tell. */
async function records<T>(lookup: () => Promise<T[]>): Promise<T[] | undefined> {
  try {
    return await lookup();
  } catch (error) {
    return NO_RECORD.has((error as NodeJS.ErrnoException).code ?? '') ? [] : undefined;
  }
}

/**
 * An MX check with the RFC 5321 fallback to an A record, remembering each domain's verdict for
 * `ttlMs`. Time-outs and server failures keep the address, so that a flaky resolver does not cost
 * a paid lead its email; a "null MX" (RFC 7505) refuses it.
 */
export function createDnsMailDomainCheck(resolver: MailResolver = dns, ttlMs = 6 * 60 * 60 * 1000): MailDomainCheck {
  const cache = new Map<string, { verdict: Promise<boolean>; expires: number }>();
  return (domain) => {
    const key = domain.toLowerCase();
    const cached = cache.get(key);
    if (cached && cached.expires > Date.now()) return cached.verdict;
    const verdict = (async () => {
      const mx = await records(() => resolver.resolveMx(key));
      if (mx === undefined) return true;
      if (mx.length > 0) return mx.some((record) => record.exchange !== '' && record.exchange !== '.');
      const addresses = await records(() => resolver.resolve4(key));
      return addresses === undefined || addresses.length > 0;
    })();
    cache.set(key, { verdict, expires: Date.now() + ttlMs });
    return verdict;
  };
}
