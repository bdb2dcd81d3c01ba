import { describe, expect, it } from 'vitest';
import { findContactPages, findScoredContactPages } from '../../src/extract/contactPages.ts';
import { loadRealSites } from '../realSites/realSite.ts';

describe('contact pages of a home page', () => {
  it('finds contact, legal and about pages on the same site, best first, capped', () => {
    const html = `
      <a href="/about-us">About us</a>
      <a href="https://www.bakery.de/impressum.html">Impressum</a>
      <a href="kontakt.htm">Kontakt</a>
      <a href="https://shop.bakery.de/wir">Wer wir sind</a>
      <a href="https://www.facebook.com/contact">Facebook contact</a>
      <a href="/files/contact-form.pdf">Contact form (PDF)</a>
      <a href="mailto:info@bakery.de">Contact</a>
      <a href="#contact">Contact</a>
      <a href="/menu">Menu</a>`;
    expect(findContactPages('https://www.bakery.de/', html)).toEqual([
      'https://www.bakery.de/kontakt.htm',
      'https://www.bakery.de/impressum.html',
      'https://www.bakery.de/about-us',
    ]);
    // Past the cap, the legal page still comes along: it names who runs the business.
    expect(findContactPages('https://www.bakery.de/', html, 1)).toEqual(['https://www.bakery.de/kontakt.htm', 'https://www.bakery.de/impressum.html']);
    expect(findScoredContactPages('https://www.bakery.de/', `<a href="/kontakt">Kontakt</a><a href="/about">About</a>`, 1)).toEqual([{ url: 'https://www.bakery.de/kontakt', score: 3 }]);
  });

  it('reads link words in other languages and in link text', () => {
    const html = `<a href="/p/17">Contáctenos</a><a href="/aviso-legal">Aviso legal</a><a href="/wie.htm">Wie Sie uns erreichen</a>`;
    expect(findContactPages('https://panaderia.example.es/', html)).toEqual([
      'https://panaderia.example.es/p/17',
      'https://panaderia.example.es/wie.htm',
      'https://panaderia.example.es/aviso-legal',
    ]);
  });

  it("finds the contact page of every real site whose home page links to it", () => {
    const pagesFound = loadRealSites().map((site) => findContactPages(site.pages[0].url, site.pages[0].html));
    const withContactLink = pagesFound.filter((pages) => pages.length > 0);
    // Two real home pages have no link to their contact page: a splash image and a frameset.
    expect(withContactLink.length).toBe(pagesFound.length - 2);
    expect(withContactLink.every((pages) => pages.length <= 3)).toBe(true);
  });
});
