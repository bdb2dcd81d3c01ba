import { describe, expect, it } from 'vitest';
import { KnownBusinesses } from '@leadforge/contracts/businessKeys.ts';
import { businessKeysOf, e164Of, siteOf, siteOfEmail } from '../src/domain/businessKeys.ts';

describe('what a website, an email and a phone are matched by', () => {
  it('a website by its registrable domain (Public Suffix List, private suffixes included)', () => {
    expect(siteOf('https://www.shop.example.co.uk/about')).toBe('example.co.uk');
    expect(siteOf('Example.COM')).toBe('example.com');
    expect(siteOf('https://alice.github.io/')).toBe('alice.github.io');
  });

  it('by its host when it has no registrable domain: an IP address, or a suffix the list does not know', () => {
    expect(siteOf('http://203.0.113.7:8080/shop')).toBe('203.0.113.7');
    expect(siteOf('http://[2001:db8::1]/')).toBe('2001:db8::1');
    expect(siteOf('https://www.site-004.fixture.test/')).toBe('site-004.fixture.test');
  });

  it('nothing for what is not a website', () => {
    for (const text of ['', 'localhost', 'com', 'javascript:alert(1)', 'http://', 'not a site']) expect(siteOf(text)).toBeUndefined();
  });

  it('an email by the site of its domain; a phone as E.164 only when international', () => {
    expect(siteOfEmail('Anna@Mail.Example.de')).toBe('example.de');
    expect(siteOfEmail('no-at-sign')).toBeUndefined();
    expect(e164Of('+49 (3322) 42-88 333')).toBe('+4933224288333');
    expect(e164Of('0044 20 7946 0958')).toBe('+442079460958');
    expect(e164Of('030 1234567')).toBeUndefined();
    expect(e164Of('+0 123 456')).toBeUndefined();
  });

  it('a business by its place and its site; a page on a shared platform by site and path', () => {
    expect(businessKeysOf({ placeKey: 'osm:node/1', website: 'https://www.example.com/' })).toEqual(['place:osm:node/1', 'site:example.com']);
    expect(businessKeysOf({ placeKey: 'osm:node/2', website: 'https://www.facebook.com/MyShop/' })).toEqual(['place:osm:node/2', 'site:facebook.com/myshop']);
    expect(businessKeysOf({ placeKey: 'osm:node/3', website: 'javascript:alert(1)' })).toEqual(['place:osm:node/3']);
    // Any page of a business's own site is the site; a platform itself is no business's site.
    expect(businessKeysOf({ placeKey: 'osm:node/4', website: 'https://shop.example.co.uk/Kontakt' })).toEqual(['place:osm:node/4', 'site:example.co.uk']);
    expect(businessKeysOf({ placeKey: 'osm:node/5', website: 'https://www.facebook.com/' })).toEqual(['place:osm:node/5']);
  });

  it('by every source\'s place, its E.164 phone and its name where it stands', () => {
    expect(businessKeysOf({
      placeKey: 'google:ChIJ1', mergedKeys: ['osm:node/4'], phone: '+40 264 300 577', name: 'Cabinet Stomatologic Pop', lat: 46.7451234, lon: 23.3349876,
    })).toEqual(['place:google:ChIJ1', 'place:osm:node/4', 'phone:+40264300577', 'near:cabinet stomatologic pop@46.74512,23.33499']);
    // A national number, or a position that is none, is no key.
    expect(businessKeysOf({ placeKey: 'osm:node/5', phone: '0264 300 577', name: 'Pop', lat: 91, lon: 0 })).toEqual(['place:osm:node/5']);
  });

  it('the same name within 100 m is the same business; farther, or another name, is not', () => {
    const known = new KnownBusinesses(businessKeysOf({ placeKey: 'google:ChIJ1', name: 'Cabinet Stomatologic Pop', lat: 46.745, lon: 23.335 }));
    const at = (name: string, lat: number, lon: number) => businessKeysOf({ placeKey: 'osm:node/9', name, lat, lon });
    // About 80 m north, the name in capitals and with an accent.
    expect(known.has(at('CABINET STOMATOLOGIC PÓP', 46.74572, 23.335))).toBe(true);
    // About 130 m north.
    expect(known.has(at('Cabinet Stomatologic Pop', 46.74617, 23.335))).toBe(false);
    expect(known.has(at('Cabinet Stomatologic Rus', 46.745, 23.335))).toBe(false);
    expect(known.has(['place:google:ChIJ1'])).toBe(true);
  });
});
