import { describe, expect, it } from 'vitest';
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
    expect(businessKeysOf('osm:node/1', 'https://www.example.com/')).toEqual(['place:osm:node/1', 'site:example.com']);
    expect(businessKeysOf('osm:node/2', 'https://www.facebook.com/MyShop/')).toEqual(['place:osm:node/2', 'site:facebook.com/myshop']);
    expect(businessKeysOf('osm:node/3', '')).toEqual(['place:osm:node/3']);
  });
});
