import { describe, expect, it } from 'vitest';
import { countryOfHost } from '../../src/extract/countryOfHost.ts';

describe('country of a host', () => {
  it.each([
    ['www.theangelpurton.co.uk', 'GB'],
    ['cukierniaroyal.pl', 'PL'],
    ['www.notar-krebs.de', 'DE'],
    ['skihundepensjonat.no.', 'NO'],
    ['example.com.au', 'AU'],
  ])('%s -> %s', (host, country) => {
    expect(countryOfHost(host)).toBe(country);
  });

  it.each(['tacoexpresspeabody.com', 'kidderminsterchess.club', 'startup.io', 'brand.co', 'shop.tv', '127.0.0.1', 'localhost'])(
    'names no country: %s',
    (host) => {
      expect(countryOfHost(host)).toBeUndefined();
    },
  );
});
