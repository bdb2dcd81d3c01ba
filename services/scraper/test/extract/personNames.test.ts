import { describe, expect, it } from 'vitest';
import { extractContacts } from '../../src/extract/extractContacts.ts';
import { loadRealSites } from '../realSites/realSite.ts';
import { extractFromHtml } from './extractFromHtml.ts';

const personOf = (body: string): string | undefined => extractFromHtml(body).person;
const jsonLd = (data: unknown): string => `<script type="application/ld+json">${JSON.stringify(data)}</script>`;

describe('the person behind a business', () => {
  it('is the person each real site names, and nobody on the sites that name none (truth.json "person")', () => {
    const sites = loadRealSites();
    const found = Object.fromEntries(sites.map((site) => [site.slug, extractContacts(site.pages, { siteUrl: site.siteUrl }).person ?? null]));
    const truth = Object.fromEntries(sites.map((site) => [site.slug, (site.truth as { person?: string }).person ?? null]));
    expect(found).toEqual(truth);
    expect(Object.values(truth).filter(Boolean).length).toBeGreaterThanOrEqual(2);
  });

  it('reads an impressum\'s owner and managing director, on the label\'s line or the next', () => {
    expect(personOf('<h1>Impressum</h1><p>Bäckerei Sonnenschein GmbH<br>Geschäftsführer: Max Mustermann<br>Hauptstraße 1</p>')).toBe('Max Mustermann');
    expect(personOf('<p>Inhaber:</p><p>Jürgen Müller-Lüdenscheidt</p><p>Tel. 030 1234567</p>')).toBe('Jürgen Müller-Lüdenscheidt');
    expect(personOf('<p>Vertreten durch: Frau Anna von Bergen, Geschäftsführerin</p>')).toBe('Anna von Bergen');
    expect(personOf('<p>Owner: Jane O\'Connor</p>')).toBe('Jane O\'Connor');
    expect(personOf('<p>Our owner is Sam Carter.</p>')).toBe('Sam Carter');
  });

  it('reads schema.org: a Person, an organisation\'s founder', () => {
    expect(personOf(jsonLd({ '@type': 'Dentist', name: 'Bright Smiles', founder: { '@type': 'Person', name: 'Dr. Lisa Chen' } }))).toBe('Dr. Lisa Chen');
    expect(personOf(jsonLd({ '@type': 'Bakery', name: 'Crumbs', founder: 'Tom Baker' }))).toBe('Tom Baker');
    // The web agency that wrote the page is someone else.
    expect(personOf(jsonLd({ '@type': 'Bakery', name: 'Crumbs', author: { '@type': 'Person', name: 'Web Wizard Pat' } }))).toBeUndefined();
  });

  it('reads the signature under a contact page\'s greeting', () => {
    expect(personOf('<p>Wir freuen uns auf Ihren Anruf.</p><p>Mit freundlichen Grüßen</p><p>Petra Schmidt</p>')).toBe('Petra Schmidt');
    expect(personOf('<p>Kind regards, Oliver Twist</p>')).toBe('Oliver Twist');
  });

  it('is nobody when the labelled text is a company, an address or a role', () => {
    expect(personOf('<p>Inhaber: Sonnenschein Bäckerei GmbH</p>')).toBeUndefined();
    expect(personOf('<p>Geschäftsführung:</p><p>Hauptstraße 12</p>')).toBeUndefined();
    expect(personOf('<p>Owner: The Team</p>')).toBeUndefined();
    expect(personOf('<p>Our founders and staff welcome you.</p><p>Dr. Shapiro graduated from Emory.</p>')).toBeUndefined();
    expect(personOf('<h1>Bright Dental</h1><p>Call us on 020 7946 0123</p>')).toBeUndefined();
  });
});
