import { describe, expect, it } from 'vitest';
import { mailtoAddresses, telephoneOfLink } from '../../src/extract/linkTargets.ts';
import { extractFromHtml } from './extractFromHtml.ts';

describe('mailto links', () => {
  it.each([
    ['mailto:info@bakery.de', ['info@bakery.de']],
    ['mailto: info@bakery.de', ['info@bakery.de']],
    ['MAILTO:Info@Bakery.de?subject=Order%20cake&body=Hi', ['info@bakery.de']],
    ['mailto:info%40bakery.de', ['info@bakery.de']],
    ['mailto:%20orders@bakery.de', ['orders@bakery.de']],
    ['mailto:a@bakery.de,b@bakery.de;c@bakery.de', ['a@bakery.de', 'b@bakery.de', 'c@bakery.de']],
    ['./mailto:info@bakery.de', ['info@bakery.de']],
    ['mailto:#', []],
    ['https://bakery.de/contact', []],
  ])('%s', (href, emails) => {
    expect(mailtoAddresses(href)).toEqual(emails);
  });

  it('reads entity-encoded addresses in link text and href', () => {
    const page = '<a href="mailto:&#105;&#110;&#102;&#111;&#64;bakery-muller.de">info&#64;bakery-muller&#46;de</a>';
    expect(extractFromHtml(page).emails).toEqual(['info@bakery-muller.de']);
  });
});

describe('tel links', () => {
  it('reads national numbers with spaces in the default country', () => {
    expect(telephoneOfLink('tel:661 27 96 96', '661 27 96 96', 'PL')).toBe('+48661279696');
    expect(telephoneOfLink('tel:%2B44%201793%20770248', 'Call', undefined)).toBe('+441793770248');
    expect(telephoneOfLink('callto:+1-978-982-1800', 'Call us', undefined)).toBe('+19789821800');
  });

  it('needs a country for national numbers', () => {
    expect(telephoneOfLink('tel:661 27 96 96', '661 27 96 96', undefined)).toBeUndefined();
  });

  it('takes an international number the metadata rejects only when the link shows it', () => {
    expect(telephoneOfLink('tel:+23487357792', '+234-8735-7792', undefined)).toBe('+23487357792');
    expect(telephoneOfLink('tel:+23487357792', 'Call us', undefined)).toBeUndefined();
    expect(telephoneOfLink('tel:+1234567890', '+1 234 567 890', undefined)).toBeUndefined();
  });
});
