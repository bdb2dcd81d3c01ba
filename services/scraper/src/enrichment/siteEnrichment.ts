import { extractContacts, findContactPages, keepDeliverableEmails, type CountryCode, type ExtractedContacts, type MailDomainCheck } from '../domain/extract/index.ts';
import type { FetchedPage, OutboundClient } from '../outbound/outboundClient.ts';
import { isOutboundError } from '../outbound/outboundErrors.ts';

export interface SiteContacts extends ExtractedContacts {
  /** The home page answered; false when the site could not be read at all. */
  reached: boolean;
  pagesFetched: number;
  /** Why the home page could not be read, when it could not. */
  failure?: string;
  /** The proxy quota ran out after the home page: these are the contacts of the pages read until then. */
  quotaExhausted?: boolean;
}

export type SiteEnricher = (website: string, country: CountryCode | undefined, signal: AbortSignal) => Promise<SiteContacts>;

export interface SiteEnricherOptions {
  client: Pick<OutboundClient, 'fetchPage'>;
  /** Contact, about, impressum... pages fetched besides the home page. */
  contactPages: number;
  /** Keeps only emails whose domain takes mail; absent when EMAIL_MX_CHECK=false. */
  mailCheck?: MailDomainCheck;
}

/** Failures that end the whole search rather than this one site. */
const endsSearch = (error: unknown) => isOutboundError(error, 'quota_exhausted') || isOutboundError(error, 'aborted');

/**
 * Reads a business website: the home page, then up to `contactPages` same-site contact / about /
 * impressum / legal pages it links to, and extracts emails, phones and social profiles from them.
 */
export function createSiteEnricher(options: SiteEnricherOptions): SiteEnricher {
  return async (website, country, signal) => {
    let home: FetchedPage;
    try {
      home = await options.client.fetchPage(website, signal);
    } catch (error) {
      if (endsSearch(error)) throw error;
      return { emails: [], phones: [], socials: [], reached: false, pagesFetched: 0, failure: (error as Error).message };
    }
    const links = findContactPages(home.url, home.html, options.contactPages);
    let quotaExhausted = false;
    const more = await Promise.all(links.map((link) => options.client.fetchPage(link, signal).catch((error) => {
      if (isOutboundError(error, 'quota_exhausted')) quotaExhausted = true;
      else if (endsSearch(error)) throw error;
      return undefined;
    })));
    const pages = [home, ...more.filter((page): page is FetchedPage => page !== undefined)];
    const contacts = extractContacts(pages.map(({ url, html }) => ({ url, html })), { defaultCountry: country, siteUrl: home.url });
    const emails = options.mailCheck ? await keepDeliverableEmails(contacts.emails, options.mailCheck) : contacts.emails;
    return { ...contacts, emails, reached: true, pagesFetched: pages.length, ...(quotaExhausted ? { quotaExhausted } : {}) };
  };
}
