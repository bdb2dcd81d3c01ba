import { keepDeliverableEmails, rankContacts, type CountryCode, type ExtractedContacts, type MailDomainCheck, type PageContacts } from '../domain/extract/index.ts';
import type { FetchedPage, OutboundClient } from '../outbound/outboundClient.ts';
import { isOutboundError } from '@leadforge/kit/outbound/outboundErrors.ts';
import { PageGivenUp } from '../parsing/pageGivenUp.ts';
import type { PageReader } from '../parsing/pageReader.ts';

export interface SiteContacts extends ExtractedContacts {
  /** The home page answered and could be read; false when the site could not be read at all. */
  reached: boolean;
  pagesFetched: number;
  /** Pages fetched but given up while reading them (nested too deep, over the time budget). */
  pagesGivenUp: number;
  /** Why the home page could not be read, when it could not. */
  failure?: string;
  /** The proxy quota ran out after the home page: these are the contacts of the pages read until then. */
  quotaExhausted?: boolean;
}

export type SiteEnricher = (website: string, country: CountryCode | undefined, signal: AbortSignal) => Promise<SiteContacts>;

export interface SiteEnricherOptions {
  client: Pick<OutboundClient, 'fetchPage'>;
  /** Parses the pages off the event loop, within the parsing budget. */
  reader: Pick<PageReader, 'readHome' | 'readPage'>;
  /** Contact, about, impressum... pages fetched besides the home page. */
  contactPages: number;
  /** Keeps only emails whose domain takes mail; absent when EMAIL_MX_CHECK=false. */
  mailCheck?: MailDomainCheck;
}

/** Failures that end the whole search rather than this one site. */
const endsSearch = (error: unknown) => isOutboundError(error, 'quota_exhausted') || isOutboundError(error, 'aborted');

const nothing = { emails: [], phones: [], socials: [] };

/**
 * Reads a business website: the home page, then up to `contactPages` same-site contact / about /
 * impressum / legal pages it links to, and extracts emails, phones and social profiles from them.
 * A page given up while reading it adds nothing; the other pages still count.
 */
export function createSiteEnricher(options: SiteEnricherOptions): SiteEnricher {
  const { client, reader } = options;
  return async (website, country, signal) => {
    let home: FetchedPage;
    try {
      home = await client.fetchPage(website, signal);
    } catch (error) {
      if (endsSearch(error)) throw error;
      return { ...nothing, reached: false, pagesFetched: 0, pagesGivenUp: 0, failure: (error as Error).message };
    }
    let homeReading;
    try {
      homeReading = await reader.readHome(home.url, home.html, country, options.contactPages);
    } catch (error) {
      if (!(error instanceof PageGivenUp)) throw error;
      return { ...nothing, reached: false, pagesFetched: 1, pagesGivenUp: 1, failure: error.message };
    }
    let quotaExhausted = false;
    let givenUp = 0;
    const more = await Promise.all(homeReading.contactPages.map(async (link): Promise<PageContacts | undefined> => {
      let page: FetchedPage;
      try {
        page = await client.fetchPage(link, signal);
      } catch (error) {
        if (isOutboundError(error, 'quota_exhausted')) quotaExhausted = true;
        else if (endsSearch(error)) throw error;
        return undefined;
      }
      return reader.readPage(page.url, page.html, country).catch((error) => {
        if (!(error instanceof PageGivenUp)) throw error;
        givenUp++;
        return undefined;
      });
    }));
    const found = [homeReading.contacts, ...more.filter((page): page is PageContacts => page !== undefined)];
    const contacts = rankContacts(found, home.url);
    const emails = options.mailCheck ? await keepDeliverableEmails(contacts.emails, options.mailCheck) : contacts.emails;
    return {
      ...contacts, emails, reached: true, pagesFetched: found.length + givenUp, pagesGivenUp: givenUp, ...(quotaExhausted ? { quotaExhausted } : {}),
    };
  };
}
