import { describe, expect, it } from 'vitest';
import { extractContacts } from '../../src/extract/extractContacts.ts';

describe('contacts of a whole site', () => {
  it("ranks the business's own domain first, then what the pages repeat", () => {
    const pages = [
      { url: 'https://www.bakery-muller.co.uk/', html: '<p>bakerymuller@gmail.com</p><p>Tel 01793 770248</p>' },
      {
        url: 'https://www.bakery-muller.co.uk/contact',
        html: '<p>bakerymuller@gmail.com or orders@shop.bakery-muller.co.uk</p><p>Tel 01793 770248, mobile 07913 227402</p>',
      },
    ];
    const found = extractContacts(pages, { defaultCountry: 'GB' });
    expect(found.emails).toEqual(['orders@shop.bakery-muller.co.uk', 'bakerymuller@gmail.com']);
    expect(found.phones).toEqual(['+441793770248', '+447913227402']);
  });

  it('reads old frameset pages whose text follows the frameset', () => {
    const html = '<html><frameset><frame src="nav.htm"></frameset><body><p>Tel. 06167/93 95 18</p></body></html>';
    expect(extractContacts([{ url: 'http://physio.example.de/', html }], { defaultCountry: 'DE' }).phones).toEqual(['+496167939518']);
  });

  it('returns nothing for pages without contacts', () => {
    expect(extractContacts([{ url: 'https://a.example.org/', html: '<p>Opening soon</p>' }])).toEqual({ emails: [], phones: [], socials: [] });
  });
});
