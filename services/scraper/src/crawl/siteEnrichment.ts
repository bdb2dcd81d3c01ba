import {
  contactEntriesOfSitemap, rankContacts, type CountryCode, type ExtractedContacts, type PageContacts, type ScoredPage,
} from '../extract/index.ts';
import { keepDeliverableEmails, type MailDomainCheck } from '../verdicts/mailDomainCheck.ts';
import type { FetchedPage, OutboundClient } from '../outbound/outboundClient.ts';
import { isOutboundError } from '@leadforge/kit/outbound';
import { PageGivenUp } from './pageGivenUp.ts';
import type { HomeReading } from './pageParseWorker.ts';
import type { PageReader } from './pageReader.ts';

/** Where a contact was found: the page, and when that page was fetched (ISO 8601). */
export interface ContactSource {
  url: string;
  fetched_at: string;
}

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
  /** The first page (in crawl order) that showed each email and phone. */
  sources: Record<string, ContactSource>;
  /**
   * The crawl went through every page it chose (each answered, none given up, the quota lasted) and
   * none showed an email or a phone, deliverable or not: the site has no contact details to find.
   */
  foundNothing?: boolean;
}

export type SiteEnricher = (website: string, country: CountryCode | undefined, signal: AbortSignal) => Promise<SiteContacts>;

export interface SiteEnricherOptions {
  client: Pick<OutboundClient, 'fetchPage'> & Partial<Pick<OutboundClient, 'fetchSitemap'>>;
  /** Parses the pages off the event loop, within the parsing budget. */
  reader: Pick<PageReader, 'readHome' | 'readPage'>;
  /** Contact, about, impressum... pages fetched besides the home page. */
  contactPages: number;
  /** Requests per site at most (robots.txt aside): home page, frames, first-level pages, sitemap, contact pages. */
  pagesPerSite?: number;
  /** Keeps only emails whose domain takes mail; absent when EMAIL_MX_CHECK=false. */
  mailCheck?: MailDomainCheck;
  now?: () => Date;
}

export const DEFAULT_PAGES_PER_SITE = 6;
// Without a contact link on the home page, this many of its first-level links are read.
const FIRST_LEVEL_LINKS = 3;

/** Failures that end the whole search rather than this one site. */
const endsSearch = (error: unknown) => isOutboundError(error, 'quota_exhausted') || isOutboundError(error, 'aborted');

const nothing = { emails: [], phones: [], socials: [], sources: {} };

/**
 * A refusal that is the site's own answer about the page (a 404, not HTML, too big): asking again
 * would get the same. Timeouts, dropped connections, 5xx, 429 and robots.txt refusals may not.
 */
function pageAnswered(error: unknown): boolean {
  if (!isOutboundError(error)) return false;
  if (error.code === 'http_status') return error.status !== undefined && error.status >= 400 && error.status < 500 && error.status !== 429;
  return ['unsupported_content', 'too_large', 'bad_url', 'blocked_address', 'too_many_redirects'].includes(error.code);
}

interface PageRead {
  url: string;
  fetchedAt: string;
  contacts: PageContacts;
}

/** Pages by score (best first), then first mention; each address once. */
function bestPages(pages: ScoredPage[]): string[] {
  const best = new Map<string, number>();
  for (const page of pages) best.set(page.url, Math.max(best.get(page.url) ?? 0, page.score));
  return [...best.entries()].sort(([, a], [, b]) => b - a).map(([url]) => url);
}

/**
 * Reads a business website, politely (robots.txt and at most `pagesPerSite` requests): the home
 * page and its same-site frames, then up to `contactPages` same-site contact / impressum / legal /
 * about pages they link to, and one legal page more when those include none and the budget allows. When none of them names a contact or legal page (a splash page), up to
 * three first-level links (navigation first) and the sitemap's contact-looking entries lead there.
 * A page given up while reading it adds nothing; the other pages still count.
 */
export function createSiteEnricher(options: SiteEnricherOptions): SiteEnricher {
  const { client, reader } = options;
  const now = options.now ?? (() => new Date());
  return async (website, country, signal) => {
    let home: FetchedPage;
    try {
      home = await client.fetchPage(website, signal);
    } catch (error) {
      if (endsSearch(error)) throw error;
      return { ...nothing, reached: false, pagesFetched: 0, pagesGivenUp: 0, failure: (error as Error).message };
    }
    const homeFetchedAt = now().toISOString();
    let homeReading: HomeReading;
    try {
      homeReading = await reader.readHome(home.url, home.html, country, options.contactPages);
    } catch (error) {
      if (!(error instanceof PageGivenUp)) throw error;
      return { ...nothing, reached: false, pagesFetched: 1, pagesGivenUp: 1, failure: error.message };
    }

    let budget = (options.pagesPerSite ?? DEFAULT_PAGES_PER_SITE) - 1;
    const requested = new Set([website, home.url]);
    let quotaExhausted = false;
    let givenUp = 0;
    let unanswered = 0;

    /** The next `count` addresses not requested yet, within the budget, now counted against it. */
    const take = (urls: string[], count: number): string[] => {
      const chosen = [...new Set(urls)].filter((url) => !requested.has(url)).slice(0, Math.max(0, Math.min(count, budget)));
      for (const url of chosen) requested.add(url);
      budget -= chosen.length;
      return chosen;
    };
    const stopOn = (error: unknown): undefined => {
      if (isOutboundError(error, 'quota_exhausted')) quotaExhausted = true;
      else if (endsSearch(error)) throw error;
      if (!pageAnswered(error)) unanswered++;
      return undefined;
    };
    const fetchAndRead = async <T extends HomeReading | PageContacts>(url: string, read: (page: FetchedPage) => Promise<T>) => {
      let page: FetchedPage;
      try {
        page = await client.fetchPage(url, signal);
      } catch (error) {
        return stopOn(error);
      }
      const fetchedAt = now().toISOString();
      requested.add(page.url);
      try {
        return { url: page.url, fetchedAt, reading: await read(page) };
      } catch (error) {
        if (!(error instanceof PageGivenUp)) throw error;
        givenUp++;
        return undefined;
      }
    };
    const readLinked = (url: string) => fetchAndRead(url, (page) => reader.readHome(page.url, page.html, country, options.contactPages));
    const readContactPage = (url: string) => fetchAndRead(url, (page) => reader.readPage(page.url, page.html, country));
    const sitemapPages = async (): Promise<ScoredPage[]> => {
      const sitemapUrl = new URL('/sitemap.xml', home.url).href;
      if (!client.fetchSitemap || take([sitemapUrl], 1).length === 0) return [];
      try {
        return contactEntriesOfSitemap(home.url, await client.fetchSitemap(sitemapUrl, signal), options.contactPages);
      } catch (error) {
        return stopOn(error) ?? [];
      }
    };

    // Frames are part of the home page as a visitor sees it; one request stays for a contact page.
    const frames = (await Promise.all(take(homeReading.frames, budget - 1).map(readLinked))).flatMap((page) => page ?? []);
    const linking = [homeReading, ...frames.map((frame) => frame.reading)];
    let candidates = linking.flatMap((reading) => reading.contactPages);
    let firstLevel: typeof frames = [];
    if (!candidates.some((page) => page.score >= 2)) {
      const known = new Set(candidates.map((page) => page.url));
      const [fromSitemap, linked] = await Promise.all([
        sitemapPages(),
        Promise.all(take(linking.flatMap((reading) => reading.navigation).filter((url) => !known.has(url)), Math.min(FIRST_LEVEL_LINKS, budget - 1)).map(readLinked)),
      ]);
      firstLevel = linked.flatMap((page) => page ?? []);
      candidates = [...candidates, ...fromSitemap, ...firstLevel.flatMap((page) => page.reading.contactPages)];
    }
    const chosen = take(bestPages(candidates), options.contactPages);
    // A legal page names who runs the business: one more, within the budget, when none was read or chosen.
    const legalPages = candidates.filter((page) => page.legal).map((page) => page.url);
    const legal = legalPages.some((url) => requested.has(url)) ? [] : take(legalPages, 1);
    const contactPages = (await Promise.all([...chosen, ...legal].map(readContactPage))).flatMap((page) => page ?? []);

    const pages: PageRead[] = [
      { url: home.url, fetchedAt: homeFetchedAt, contacts: homeReading.contacts },
      ...[...frames, ...firstLevel].map((page) => ({ url: page.url, fetchedAt: page.fetchedAt, contacts: page.reading.contacts })),
      ...contactPages.map((page) => ({ url: page.url, fetchedAt: page.fetchedAt, contacts: page.reading })),
    ];
    const contacts = rankContacts(pages.map((page) => ({ url: page.url, contacts: page.contacts })), home.url);
    const emails = options.mailCheck ? await keepDeliverableEmails(contacts.emails, options.mailCheck) : contacts.emails;
    return {
      ...contacts,
      emails,
      sources: sourcesOf(pages),
      reached: true,
      pagesFetched: pages.length + givenUp,
      pagesGivenUp: givenUp,
      ...(quotaExhausted ? { quotaExhausted } : {}),
      ...(!contacts.emails.length && !contacts.phones.length && !quotaExhausted && !givenUp && !unanswered ? { foundNothing: true } : {}),
    };
  };
}

function sourcesOf(pages: PageRead[]): Record<string, ContactSource> {
  const sources: Record<string, ContactSource> = {};
  for (const page of pages) {
    for (const contact of [...page.contacts.emails, ...page.contacts.phones]) {
      sources[contact] ??= { url: page.url, fetched_at: page.fetchedAt };
    }
  }
  return sources;
}
