import { emailDomain } from './emailAddress.ts';
import { readPageContacts, type PageContacts } from './pageContacts.ts';
import { roleRank } from './personNames.ts';
import { rankByEvidence } from './rankByEvidence.ts';
import { hostOf, sameSite } from './siteDomain.ts';
import type { ExtractedContacts, ExtractOptions, FetchedPage, Person } from './types.ts';

/** One person however the pages write them: "Dr. Markus Krebs" and "Markus Krebs" alike. */
const personKey = (name: string): string => name.replace(/^(?:(?:dr|prof)\.?\s+)+/iu, '').toLowerCase();

/**
 * Everyone the pages name as running the business, once each, the best decision-maker first: by the
 * best role any page gives them (owner, managing director, partner, manager, other), then by how
 * often the pages name them, then by who is named first. Each keeps the page of that best role.
 */
function peopleOf(pages: ReadPage[]): { people?: Person[] } {
  const people = new Map<string, { person: Person; count: number; first: number }>();
  let order = 0;
  for (const { url, contacts } of pages) {
    for (const mention of contacts.persons) {
      const key = personKey(mention.name);
      const known = people.get(key);
      const person: Person = { name: mention.name, role: mention.role, ...(mention.roleText ? { roleText: mention.roleText } : {}), page: url };
      if (!known) people.set(key, { person, count: 1, first: order++ });
      else {
        known.count++;
        // The longer written form keeps the title ("Dr. Markus Krebs").
        const name = mention.name.length > known.person.name.length ? mention.name : known.person.name;
        known.person = roleRank(mention.role) < roleRank(known.person.role) ? { ...person, name } : { ...known.person, name };
      }
    }
  }
  const ranked = [...people.values()]
    .sort((a, b) => roleRank(a.person.role) - roleRank(b.person.role) || b.count - a.count || a.first - b.first)
    .map((entry) => entry.person);
  return ranked.length ? { people: ranked } : {};
}

/** What one page showed, and its address. */
export interface ReadPage {
  url: string;
  contacts: PageContacts;
}

/**
 * The contacts of one business from what each page of its website showed, best first: addresses
 * on the site's own domain lead, then whatever the pages repeat most.
 */
export function rankContacts(pages: ReadPage[], siteUrl: string): ExtractedContacts {
  const found = pages.map((page) => page.contacts);
  const siteHost = hostOf(siteUrl);
  const onOwnDomain = (email: string): number => (siteHost && sameSite(emailDomain(email), siteHost) ? 0 : 1);
  return {
    emails: rankByEvidence(found.flatMap((page) => page.emails), (email) => email, onOwnDomain),
    phones: rankByEvidence(found.flatMap((page) => page.phones), (phone) => phone),
    socials: rankByEvidence(found.flatMap((page) => page.socials), (social) => social.url),
    ...peopleOf(pages),
  };
}

/** Emails, phones (E.164) and social profiles of one business from pages of its website, best first. */
export function extractContacts(pages: FetchedPage[], options: ExtractOptions = {}): ExtractedContacts {
  const found = pages.map((page) => ({ url: page.url, contacts: readPageContacts(page.html, options.defaultCountry) }));
  return rankContacts(found, options.siteUrl ?? pages[0]?.url ?? '');
}
