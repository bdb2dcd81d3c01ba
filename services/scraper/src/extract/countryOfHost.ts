import { isSupportedCountry, type CountryCode } from 'libphonenumber-js/max';

// Country-code TLDs sold worldwide as generic names say nothing about where a business is.
const GENERIC_USE = new Set(['ac', 'ai', 'am', 'cc', 'co', 'fm', 'gg', 'im', 'io', 'la', 'ly', 'me', 'nu', 'sh', 'to', 'tv', 'ws']);

/** The country a host's TLD names (example.co.uk -> GB, example.pl -> PL), if it names one. */
export function countryOfHost(host: string): CountryCode | undefined {
  const tld = host.toLowerCase().replace(/\.$/, '').split('.').at(-1) ?? '';
  if (tld.length !== 2 || GENERIC_USE.has(tld)) return undefined;
  const country = (tld === 'uk' ? 'GB' : tld.toUpperCase()) as CountryCode;
  return isSupportedCountry(country) ? country : undefined;
}
