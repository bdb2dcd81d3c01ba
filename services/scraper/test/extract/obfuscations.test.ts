import { describe, expect, it } from 'vitest';
import { readPageContacts } from '../../src/extract/pageContacts.ts';
import { emailsInText } from '../../src/extract/emailsInText.ts';

const emailsOf = (html: string): string[] => readPageContacts(`<html><body>${html}</body></html>`, 'DE').emails;

describe('obfuscated addresses', () => {
  it.each([
    ['info (arroba) empresa (punto) es', 'info@empresa.es'],
    ['info arroba empresa punto es', 'info@empresa.es'],
    ['kontakt [at] firma [punkt] de', 'kontakt@firma.de'],
    ['E-Mail: kontakt at firma punkt de', 'kontakt@firma.de'],
    ['contact [arobase] societe [point] fr', 'contact@societe.fr'],
    ['info chiocciola azienda punto it', 'info@azienda.it'],
    ['biuro (małpa) firma (kropka) pl', 'biuro@firma.pl'],
    ['info (zavináč) firma (tečka) cz', 'info@firma.cz'],
    ['info [snabel-a] foretag [punkt] se', 'info@foretag.se'],
    ['info&#64;bakery&#46;de', 'info@bakery.de'],
  ])('reads %s', (text, email) => {
    expect(emailsInText(text)).toEqual([email]);
  });

  it('does not read prose with local words for "dot" as addresses', () => {
    expect(emailsInText('Wir treffen uns at home punkt acht')).toEqual([]);
    expect(emailsInText('Rendez-vous at noon point final')).toEqual([]);
  });

  it('reads text mirrored by CSS the way a visitor sees it, and not backwards', () => {
    expect(emailsOf('<span style="unicode-bidi: bidi-override; direction: rtl">ed.yrekab@ofni</span>')).toEqual(['info@bakery.de']);
    expect(emailsOf('<style>.m { direction: rtl; unicode-bidi: bidi-override }</style><p class="x m">ed.yrekab@ofni</p>')).toEqual(['info@bakery.de']);
  });

  it('reads addresses that inline scripts reverse or assemble, not whole addresses of libraries', () => {
    expect(emailsOf(`<script>document.write("ed.yrekab@ofni".split("").reverse().join(""))</script>`)).toEqual(['info@bakery.de']);
    expect(emailsOf(`<script>var a = 'info' + '@' + 'bakery.de'; document.write('<a href="mailto:' + a + '">mail</a>')</script>`)).toEqual(['info@bakery.de']);
    expect(emailsOf(`<script>var support = 'help@widgetvendor.com'; var x = 'a' + 'b';</script>`)).toEqual([]);
  });

  it('decodes Cloudflare email protection', () => {
    const key = 0x42;
    const hex = [key, ...Buffer.from('info@bakery.de')].map((byte, i) => (i === 0 ? byte : byte ^ key).toString(16).padStart(2, '0')).join('');
    expect(emailsOf(`<a href="/cdn-cgi/l/email-protection" class="__cf_email__" data-cfemail="${hex}">[email protected]</a>`)).toEqual(['info@bakery.de']);
  });
});
