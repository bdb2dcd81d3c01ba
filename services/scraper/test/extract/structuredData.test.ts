import { describe, expect, it } from 'vitest';
import { extractFromHtml } from './extractFromHtml.ts';

const jsonLd = (data: unknown): string => `<script type="application/ld+json">${JSON.stringify(data)}</script>`;

describe('schema.org JSON-LD', () => {
  it('reads email, telephone and sameAs of the business', () => {
    const found = extractFromHtml(
      jsonLd({
        '@context': 'https://schema.org',
        '@type': 'Bakery',
        email: 'mailto:Info@Bakery-Muller.de',
        telephone: '+49 30 1234567',
        sameAs: ['https://www.facebook.com/bakerymuller', 'https://www.instagram.com/bakerymuller/'],
      }),
    );
    expect(found.emails).toEqual(['info@bakery-muller.de']);
    expect(found.phones).toEqual(['+49301234567']);
    expect(found.socials.map((social) => social.network)).toEqual(['facebook', 'instagram']);
  });

  it('walks nested @graph entities and contact points', () => {
    const found = extractFromHtml(
      jsonLd({
        '@context': 'https://schema.org',
        '@graph': [
          { '@type': 'WebSite', name: 'Bakery' },
          {
            '@type': 'Organization',
            contactPoint: [{ '@type': 'ContactPoint', telephone: '030 7654321', email: 'orders@bakery-muller.de' }],
          },
        ],
      }),
      'DE',
    );
    expect(found.emails).toEqual(['orders@bakery-muller.de']);
    expect(found.phones).toEqual(['+49307654321']);
  });

  it('leaves out other parties: the author or creator of the page', () => {
    const found = extractFromHtml(
      jsonLd({ '@type': 'WebPage', author: { '@type': 'Organization', email: 'studio@webagency.example.net' }, creator: { email: 'dev@agency.io' } }),
    );
    expect(found.emails).toEqual([]);
  });

  it('tolerates trailing commas and skips blocks that are not JSON', () => {
    const page = `<script type="application/ld+json">{"@type":"Store","email":"shop@bakery-muller.de",}</script>
      <script type="application/ld+json">{ not json </script>`;
    expect(extractFromHtml(page).emails).toEqual(['shop@bakery-muller.de']);
  });
});
