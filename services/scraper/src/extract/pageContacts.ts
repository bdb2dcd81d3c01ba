import type { CheerioAPI } from 'cheerio';
import { loadHtml } from './boundedHtml.ts';
import { decodeCloudflareEmail } from './cloudflareEmail.ts';
import { normaliseEmail } from './emailAddress.ts';
import { emailsInText } from './emailsInText.ts';
import { isJunkEmail } from './emailJunk.ts';
import { mailtoAddresses, protectedLinkAddress, telephoneOfLink } from './linkTargets.ts';
import { validE164 } from './phoneNumber.ts';
import { personsInLines, structuredPerson, type PersonMention } from './personNames.ts';
import { phonesInText } from './phonesInText.ts';
import { socialProfile } from './socialProfiles.ts';
import { scriptAddresses } from './scriptAddresses.ts';
import { readStructuredData } from './structuredData.ts';
import type { CountryCode, SocialLink } from './types.ts';
import { readVisibleContent } from './visibleContent.ts';

/** Every contact one page shows, in page order, repeats included (they count as evidence). */
export interface PageContacts {
  emails: string[];
  phones: string[];
  socials: SocialLink[];
  /** People the page names as running the business, with their roles (personNames.ts). */
  persons: PersonMention[];
}

/** Reads a page parsed by `loadHtml`; throws PageTooDeep for a page nested past the bound. */
export function readPageContacts(html: string | CheerioAPI, defaultCountry: CountryCode | undefined): PageContacts {
  const $ = typeof html === 'string' ? loadHtml(html) : html;
  const visible = readVisibleContent($);
  const structured = readStructuredData($);

  const emails = [
    ...visible.links.flatMap((link) => [...mailtoAddresses(link.href), protectedLinkAddress(link.href) ?? []].flat()),
    ...visible.cloudflareEmails.flatMap((hex) => normaliseEmail(decodeCloudflareEmail(hex) ?? '') ?? []),
    ...structured.emails.flatMap((value) => normaliseEmail(value) ?? []),
    ...visible.lines.flatMap(emailsInText),
    ...scriptAddresses($),
  ].filter((email) => !isJunkEmail(email));

  const phones = [
    ...visible.links.flatMap((link) => telephoneOfLink(link.href, link.text, defaultCountry) ?? []),
    ...structured.telephones.flatMap((value) => validE164(value, defaultCountry) ?? []),
    ...visible.lines.flatMap((line) => phonesInText(line, defaultCountry)),
  ];

  const socials = [...visible.links.map((link) => link.href), ...structured.sameAs].flatMap(
    (href) => socialProfile(href) ?? [],
  );

  const persons = [
    ...structured.persons.flatMap((person) => structuredPerson(person.name, person.jobTitle, person.founder) ?? []),
    ...personsInLines(visible.lines),
  ];

  return { emails, phones, socials, persons };
}
