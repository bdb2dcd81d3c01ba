import { emailDomain } from './emailAddress.ts';
import { readPageContacts, type PageContacts } from './pageContacts.ts';
import { rankByEvidence } from './rankByEvidence.ts';
import { hostOf, sameSite } from './siteDomain.ts';
import type { ExtractedContacts, ExtractOptions, FetchedPage } from './types.ts';

/** The person the pages name most often (the first named, on a tie); none when no page names one. */
function personOf(found: PageContacts[]): { person?: string } {
  const [person] = rankByEvidence(found.flatMap((page) => page.persons), (name) => name.toLowerCase());
  return person ? { person } : {};
}

/**
 * The contacts of one business from what each page of its website showed, best first: addresses
 * on the site's own domain lead, then whatever the pages repeat most.
 */
export function rankContacts(found: PageContacts[], siteUrl: string): ExtractedContacts {
  const siteHost = hostOf(siteUrl);
  const onOwnDomain = (email: string): number => (siteHost && sameSite(emailDomain(email), siteHost) ? 0 : 1);
  return {
    emails: rankByEvidence(found.flatMap((page) => page.emails), (email) => email, onOwnDomain),
    phones: rankByEvidence(found.flatMap((page) => page.phones), (phone) => phone),
    socials: rankByEvidence(found.flatMap((page) => page.socials), (social) => social.url),
    ...personOf(found),
  };
}

/** Emails, phones (E.164) and social profiles of one business from pages of its website, best first. */
export function extractContacts(pages: FetchedPage[], options: ExtractOptions = {}): ExtractedContacts {
  const found = pages.map((page) => readPageContacts(page.html, options.defaultCountry));
  return rankContacts(found, options.siteUrl ?? pages[0]?.url ?? '');
}
