import { afterAll, describe, expect, it } from 'vitest';
import { OutboundError } from '@leadforge/kit/outbound';
import { createSiteEnricher } from '../src/crawl/siteEnrichment.ts';
import { testPageReader } from './support/testPageReader.ts';

/** A site held in memory: pages and sitemap by URL, every request recorded. */
function memorySite(pages: Record<string, string>, sitemap?: string) {
  const requests: string[] = [];
  const missing = (url: string) => new OutboundError('http_status', `${url} answered HTTP 404`, url, 404);
  return {
    requests,
    client: {
      async fetchPage(url: string) {
        requests.push(url);
        if (pages[url] === undefined) throw missing(url);
        return { url, status: 200, html: pages[url] };
      },
      async fetchSitemap(url: string) {
        requests.push(url);
        if (sitemap === undefined) throw missing(url);
        return sitemap;
      },
    },
  };
}

describe('the deeper, polite crawl', () => {
  const parsing = testPageReader();
  afterAll(() => parsing.release());
  const enrichWith = (client: ReturnType<typeof memorySite>['client']) =>
    createSiteEnricher({ client, reader: parsing.reader, contactPages: 3, pagesPerSite: 6, now: () => new Date('2026-11-24T10:00:00Z') });

  it('reads same-site frames, and the contact pages their navigation links to', async () => {
    const site = memorySite({
      'https://praxis.example.de/': '<frameset><frame src="banner.htm" scrolling="no"><frame src="navi.htm"><frame src="https://ads.example.com/x.htm"></frameset>',
      'https://praxis.example.de/banner.htm': '<p>Praxis am Markt</p>',
      'https://praxis.example.de/navi.htm': '<a href="impressum.htm">Impressum</a>',
      'https://praxis.example.de/impressum.htm': '<p>Tel. 06151 123456</p><a href="mailto:info@praxis.example.de">Mail</a>',
    });
    const found = await enrichWith(site.client)('https://praxis.example.de/', 'DE', AbortSignal.timeout(5000));
    expect(found.emails).toEqual(['info@praxis.example.de']);
    expect(found.phones).toEqual(['+496151123456']);
    expect(found.sources['info@praxis.example.de']).toEqual({ url: 'https://praxis.example.de/impressum.htm', fetched_at: '2026-11-24T10:00:00.000Z' });
    expect(site.requests).not.toContain('https://ads.example.com/x.htm');
  });

  it('goes two links deep from a splash page, navigation first, and reads the sitemap\'s contact entries', async () => {
    const site = memorySite({
      'https://cafe.example.fr/': '<p>Bienvenue</p><a href="/blog">Blog</a><nav><a href="/accueil">Entrer</a></nav>',
      'https://cafe.example.fr/accueil': '<a href="/nous-contacter">Nous contacter</a>',
      'https://cafe.example.fr/nous-contacter': '<p>contact (arobase) cafe.example.fr</p>',
      'https://cafe.example.fr/blog': '<p>Nouvelles</p>',
      'https://cafe.example.fr/mentions-legales': '<p>Tél. 01 42 68 53 00</p>',
    }, '<urlset><url><loc>https://cafe.example.fr/mentions-legales</loc></url><url><loc>https://cafe.example.fr/menu</loc></url></urlset>');
    const found = await enrichWith(site.client)('https://cafe.example.fr/', 'FR', AbortSignal.timeout(5000));
    expect(found.emails).toEqual(['contact@cafe.example.fr']);
    expect(found.phones).toEqual(['+33142685300']);
    expect(site.requests[1]).toBe('https://cafe.example.fr/sitemap.xml');
    expect(site.requests.indexOf('https://cafe.example.fr/accueil')).toBeLessThan(site.requests.indexOf('https://cafe.example.fr/blog'));
    expect(site.requests).not.toContain('https://cafe.example.fr/menu');
  });

  it('stays within the per-site request budget', async () => {
    const links = Array.from({ length: 12 }, (_, i) => `<a href="/p${i}">Seite ${i}</a>`).join('');
    const pages: Record<string, string> = { 'https://shop.example.de/': `<nav>${links}</nav>` };
    for (let i = 0; i < 12; i++) pages[`https://shop.example.de/p${i}`] = `<a href="/kontakt-${i}">Kontakt</a>`;
    const site = memorySite(pages, '<urlset><url><loc>https://shop.example.de/impressum</loc></url></urlset>');
    await enrichWith(site.client)('https://shop.example.de/', 'DE', AbortSignal.timeout(5000));
    expect(site.requests.length).toBeLessThanOrEqual(6);
  });

  it('does not go deeper when the home page links its contact page', async () => {
    const site = memorySite({
      'https://bakery.example.co.uk/': '<nav><a href="/menu">Menu</a><a href="/contact">Contact</a></nav>',
      'https://bakery.example.co.uk/contact': '<a href="mailto:hello@bakery.example.co.uk">Email</a>',
    });
    await enrichWith(site.client)('https://bakery.example.co.uk/', 'GB', AbortSignal.timeout(5000));
    expect(site.requests).toEqual(['https://bakery.example.co.uk/', 'https://bakery.example.co.uk/contact']);
  });
});
