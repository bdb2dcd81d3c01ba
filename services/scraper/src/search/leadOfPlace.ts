import { parsePhoneNumberFromString, isSupportedCountry, type CountryCode } from 'libphonenumber-js/max';
import type { Static } from 'typebox';
import type { EngineLead } from '@leadforge/contracts';
import type { Place } from '../places/index.ts';
import { judgePhone } from '../verdicts/phoneVerdict.ts';
import type { ContactSource, SiteContacts } from '../crawl/siteEnrichment.ts';

export type Lead = Static<typeof EngineLead>;

export const placeKeyOf = (place: Place): string => `${place.source}:${place.placeId}`;

export function countryCodeOf(place: Place): CountryCode | undefined {
  const code = place.country?.toUpperCase();
  return code && isSupportedCountry(code) ? (code as CountryCode) : undefined;
}

/** A phone from the maps source in E.164, read in the place's country; undefined when it is not a valid number. */
function placePhone(place: Place): string | undefined {
  if (!place.phone) return undefined;
  const parsed = parsePhoneNumberFromString(place.phone, countryCodeOf(place));
  return parsed?.isValid() ? parsed.number : undefined;
}

function placeEmail(place: Place): string | undefined {
  const email = place.email?.trim().toLowerCase().replace(/^mailto:/, '');
  return email && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? email : undefined;
}

const unique = (values: (string | undefined)[]): string[] => [...new Set(values.filter((value): value is string => Boolean(value)))];

/** The place's position when it is one (a provider's odd coordinates must not make the lead unsendable). */
function positionOf(place: Place): Pick<Lead, 'lat' | 'lon'> {
  const { lat, lon } = place;
  return lat !== undefined && lon !== undefined && Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? { lat, lon } : {};
}

/** Where a contact came from: the page that showed it, or the map listing for the place's own tags. */
function provenance(kind: 'email' | 'phone', source: ContactSource | undefined, place: Place): Partial<Lead> {
  const url = source?.url ?? `${place.source}:${place.placeId}`;
  return { [`${kind}_source`]: url, ...(source ? { [`${kind}_fetched_at`]: source.fetched_at } : {}) };
}

/** The people the business's pages name, the decision-maker first; never the business's own name. */
function peopleOf(place: Place, site: SiteContacts | undefined): NonNullable<Lead['people']> {
  const business = place.name.trim().toLowerCase();
  return (site?.people ?? [])
    .filter((person) => person.name.toLowerCase() !== business)
    .slice(0, 20)
    .map((person) => ({ name: person.name, role: person.role, ...(person.roleText ? { role_text: person.roleText } : {}), source: person.page }));
}

/**
 * The lead for a place: its own tags first (a mapper or the business put them there), then what
 * its website shows. A place with neither an email nor a phone is not a lead: it has no contact
 * route, so it is neither sent nor counted.
 */
export function leadOfPlace(place: Place, site?: SiteContacts): Lead | undefined {
  const emails = unique([placeEmail(place), ...(site?.emails ?? [])]);
  const phones = unique([placePhone(place), ...(site?.phones ?? [])]);
  if (!emails.length && !phones.length) return undefined;
  const phone = phones[0] ? judgePhone(phones[0]) : undefined;
  // The place's own tags are taken before the site's: their provenance is the listing, not a page.
  const people = peopleOf(place, site);
  const sourceOf = (contact: string | undefined, own: string | undefined) => (contact && contact !== own ? site?.sources[contact] : undefined);
  return {
    key: placeKeyOf(place),
    // A lead's `name` is its best decision-maker or empty, never a guess.
    name: people[0]?.name ?? '',
    company: place.name,
    email: emails[0] ?? '',
    phone: phones[0] ?? '',
    website: place.website ?? '',
    city: place.city ?? '',
    ...(place.address ? { address: place.address } : {}),
    ...(place.country ? { country: place.country } : {}),
    ...(site?.socials.length ? { socials: site.socials.map(({ network, url }) => ({ network, url })) } : {}),
    ...(people.length ? { people } : {}),
    source: place.source,
    place_id: place.placeId,
    ...positionOf(place),
    ...(place.mergedKeys?.length ? { merged_keys: place.mergedKeys.filter((key) => key.length <= 500).slice(0, 10) } : {}),
    emails,
    phones,
    ...(emails[0] ? provenance('email', sourceOf(emails[0], placeEmail(place)), place) : {}),
    ...(phone ? { phone_type: phone.type, phone_display: phone.display, ...provenance('phone', sourceOf(phones[0], placePhone(place)), place) } : {}),
  };
}

/** What makes two leads of one search the same business to the user: their first contact route. */
export const contactKeyOf = (lead: Lead): string => (lead.email ? `email:${lead.email}` : `phone:${lead.phone}`);
