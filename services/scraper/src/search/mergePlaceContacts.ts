import { normaliseEmail } from '../extract/emailAddress.ts';
import { isJunkEmail } from '../extract/emailJunk.ts';
import { plausibleInternationalE164, validE164 } from '../extract/phoneNumber.ts';
import type { CountryCode, ExtractedContacts } from '../extract/types.ts';
import type { Place } from '../places/types.ts';

/**
 * A lead's contacts: what the places source already knows about the business (its own listing,
 * so first) followed by what its website shows, without repeats.
 */
export function mergePlaceContacts(place: Place, fromWebsite: ExtractedContacts, defaultCountry?: CountryCode): ExtractedContacts {
  const country = defaultCountry ?? (place.country as CountryCode | undefined);
  const listedEmail = place.email ? normaliseEmail(place.email) : undefined;
  const listedPhone = place.phone ? (validE164(place.phone, country) ?? plausibleInternationalE164(place.phone)) : undefined;
  return {
    emails: [...new Set([...(listedEmail && !isJunkEmail(listedEmail) ? [listedEmail] : []), ...fromWebsite.emails])],
    phones: [...new Set([...(listedPhone ? [listedPhone] : []), ...fromWebsite.phones])],
    socials: fromWebsite.socials,
    ...(fromWebsite.people ? { people: fromWebsite.people } : {}),
  };
}
