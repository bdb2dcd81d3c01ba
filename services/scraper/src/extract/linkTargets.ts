import { cloudflareHexOfHref, decodeCloudflareEmail } from './cloudflareEmail.ts';
import { normaliseEmail } from './emailAddress.ts';
import { digitsOf, plausibleInternationalE164, validE164 } from './phoneNumber.ts';
import type { CountryCode } from './types.ts';

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Addresses of a mailto link. Broken relative forms ("./mailto:…"), spaces after the colon,
 * URL-encoding, several recipients and ?subject=… queries are all tolerated.
 */
export function mailtoAddresses(href: string): string[] {
  const at = href.toLowerCase().indexOf('mailto:');
  if (at < 0) return [];
  const recipients = decode(href.slice(at + 'mailto:'.length).split('?')[0]);
  return recipients.split(/[,;]/).flatMap((recipient) => normaliseEmail(recipient) ?? []);
}

/** The address behind a Cloudflare email-protection link. */
export function protectedLinkAddress(href: string): string | undefined {
  const hex = cloudflareHexOfHref(href);
  const decoded = hex ? decodeCloudflareEmail(hex) : undefined;
  return decoded ? normaliseEmail(decoded) : undefined;
}

/**
 * The number of a tel: (or callto:) link in E.164. A number the parser does not accept is still
 * taken when it is written internationally and the link's own text shows the same digits.
 */
export function telephoneOfLink(href: string, text: string, defaultCountry: CountryCode | undefined): string | undefined {
  const scheme = /(?:tel|callto):/i.exec(href);
  if (!scheme) return undefined;
  const value = decode(href.slice(scheme.index + scheme[0].length)).split(/[;?]/)[0].replace(/^\/\//, '');
  const valid = validE164(value, defaultCountry);
  if (valid) return valid;
  const plausible = plausibleInternationalE164(value);
  return plausible && digitsOf(text).endsWith(digitsOf(plausible).slice(-7)) ? plausible : undefined;
}
