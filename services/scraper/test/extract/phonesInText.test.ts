import { describe, expect, it } from 'vitest';
import { phonesInText } from '../../src/extract/phonesInText.ts';
import { extractFromHtml } from './extractFromHtml.ts';

describe('phone numbers in text', () => {
  it.each([
    ['Tel: 01793 770248', 'GB', '+441793770248'],
    ['Call (978) 982-1800 today', 'US', '+19789821800'],
    ['Tel.: 0 61 67 / 93 95 18', 'DE', '+496167939518'],
    ['Telefon:\u00a00871\u00a023001', 'DE', '+4987123001'],
    ['Phone : +91 \u2013 6390369148', undefined, '+916390369148'],
    ['Mobil: +420 603 788 636', undefined, '+420603788636'],
    ['+44 (0) 20 7946 0958', undefined, '+442079460958'],
    ['tél. 01 42 68 53 00', 'FR', '+33142685300'],
  ])('reads %s', (text, country, e164) => {
    expect(phonesInText(text, country as never)).toEqual([e164]);
  });

  it.each([
    ['postcodes', '64367 Mühltal, 2830-335 Barreiro, SN5 4AB, Lucknow 226 016', 'DE'],
    ['tax and company ids', 'NIP: 895 173 74 48 REGON: 022416730', 'PL'],
    ['VAT ids', 'USt-IdNr.: DE 814324878, Umsatzsteuer-ID 63 770 582 417', 'DE'],
    ['Czech company ids', 'IČ:66714699 DIČ:CZ 6807080599', 'CZ'],
    ['bank accounts', 'nr konta: 28 1940 1076 3144 0781 0000 0000', 'PL'],
    ['IBANs', 'IBAN DE89 3704 0044 0532 0130 00', 'DE'],
    ['dates', 'Stand: 10.10.2020, updated 2020-10-25', 'DE'],
    ['prices', 'Menu from 1 234,50 € or $ 4045232514', 'US'],
    ['versions', 'jQuery v3.6.0, version 4045232514', 'US'],
    ['fax numbers', 'Fax: 0871 23561', 'DE'],
    ['ids glued to letters', 'ref4045232514 / 4v1711437185591', 'US'],
  ])('rejects %s', (_, text, country) => {
    expect(phonesInText(text, country as never)).toEqual([]);
  });

  it('reads one-letter footer labels', () => {
    expect(phonesInText('T: 01793 770248 F: 01793 770249', 'GB')).toEqual(['+441793770248']);
  });

  it('keeps a voice number labelled together with fax', () => {
    expect(phonesInText('Tel./Fax: 0871 23001', 'DE')).toEqual(['+4987123001']);
  });

  it('dedupes one number written in several forms across a page', () => {
    const page = `
      <script type="application/ld+json">{"@type":"SportsClub","telephone":"+447913227402"}</script>
      <p>Call the president on 07913 227 402.</p><a href="tel:07913227402">07913 227 402</a>`;
    expect(extractFromHtml(page, 'GB').phones).toEqual(['+447913227402']);
  });
});
