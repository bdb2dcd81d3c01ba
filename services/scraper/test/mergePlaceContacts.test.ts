import { describe, expect, it } from 'vitest';
import { mergePlaceContacts } from '../src/search/mergePlaceContacts.ts';
import type { Place } from '../src/places/types.ts';

const place: Place = { placeId: 'node/1', source: 'osm', name: 'Bakery Müller', country: 'DE' };
const fromWebsite = { emails: ['info@bakery-muller.de'], phones: ['+49301234567'], socials: [] };

describe("merging the place's own contacts", () => {
  it("puts the listing's contacts first, normalised, without repeats", () => {
    const merged = mergePlaceContacts({ ...place, email: ' Orders@Bakery-Muller.de ', phone: '030 7654321' }, fromWebsite);
    expect(merged.emails).toEqual(['orders@bakery-muller.de', 'info@bakery-muller.de']);
    expect(merged.phones).toEqual(['+49307654321', '+49301234567']);
    expect(mergePlaceContacts({ ...place, phone: '+49 30 1234567' }, fromWebsite).phones).toEqual(['+49301234567']);
  });

  it('drops listing values that are not contacts', () => {
    const merged = mergePlaceContacts({ ...place, email: 'you@example.com', phone: '12' }, fromWebsite);
    expect(merged).toEqual(fromWebsite);
  });
});
