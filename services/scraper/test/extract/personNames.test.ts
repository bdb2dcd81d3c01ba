import { describe, expect, it } from 'vitest';
import { extractContacts } from '../../src/extract/extractContacts.ts';
import type { Person } from '../../src/extract/types.ts';
import { emptyTally, personKey, precision, recall, tally } from '../realSites/contactScore.ts';
import { loadRealSites } from '../realSites/realSite.ts';
import { extractFromHtml } from './extractFromHtml.ts';

const peopleOf = (body: string): Person[] => extractFromHtml(body).people ?? [];
const personOf = (body: string): string | undefined => peopleOf(body)[0]?.name;
const jsonLd = (data: unknown): string => `<script type="application/ld+json">${JSON.stringify(data)}</script>`;
const named = (people: Person[]) => people.map(({ name, role, roleText }) => ({ name, role, ...(roleText ? { roleText } : {}) }));

describe('the people who run a business', () => {
  it('are found on the labelled real sites with precision >= 0.95 and recall >= 0.80 (truth.json "people")', () => {
    const names = emptyTally();
    const decisionMakers: Record<string, string | null>[] = [];
    for (const site of loadRealSites()) {
      const found = extractContacts(site.pages, { siteUrl: site.siteUrl }).people ?? [];
      tally(names, site.slug, found.map((person) => personKey(person.name)), site.truth.people.map((person) => personKey(person.name)), []);
      // Where a site names its people and we find one, the lead's Name is one of them.
      if (found[0] && site.truth.people.length) decisionMakers.push({ [site.slug]: site.truth.people.some((person) => personKey(person.name) === personKey(found[0].name)) ? null : found[0].name });
    }
    expect(names.extra).toEqual([]);
    expect(precision(names)).toBeGreaterThanOrEqual(0.95);
    expect(recall(names)).toBeGreaterThanOrEqual(0.8);
    expect(names.truePositives).toBeGreaterThanOrEqual(7);
    expect(decisionMakers.filter((entry) => Object.values(entry)[0] !== null)).toEqual([]);
  });

  it('reads an impressum\'s owner and managing director, on the label\'s line or the next, with the role as written', () => {
    expect(named(peopleOf('<h1>Impressum</h1><p>Bäckerei Sonnenschein GmbH<br>Geschäftsführer: Max Mustermann<br>Hauptstraße 1</p>')))
      .toEqual([{ name: 'Max Mustermann', role: 'managing_director', roleText: 'Geschäftsführer' }]);
    expect(named(peopleOf('<p>Inhaber:</p><p>Jürgen Müller-Lüdenscheidt</p><p>Tel. 030 1234567</p>')))
      .toEqual([{ name: 'Jürgen Müller-Lüdenscheidt', role: 'owner', roleText: 'Inhaber' }]);
    expect(named(peopleOf('<p>Vertreten durch: Frau Anna von Bergen, Geschäftsführerin</p>')))
      .toEqual([{ name: 'Anna von Bergen', role: 'managing_director', roleText: 'Geschäftsführerin' }]);
    expect(personOf('<p>Owner: Jane O\'Connor</p>')).toBe('Jane O\'Connor');
    expect(named(peopleOf('<p>Our owner is Sam Carter.</p>'))).toEqual([{ name: 'Sam Carter', role: 'owner', roleText: 'owner' }]);
  });

  it('names everyone a label lists, and the owner before a managing director', () => {
    expect(named(peopleOf('<p>Geschäftsführer: Eva Roth und Paul Roth</p>')).map((person) => person.name)).toEqual(['Eva Roth', 'Paul Roth']);
    expect(named(peopleOf('<p>Geschäftsführerin: Lena Vogt</p><p>Inhaber: Karl Vogt</p>'))).toEqual([
      { name: 'Karl Vogt', role: 'owner', roleText: 'Inhaber' },
      { name: 'Lena Vogt', role: 'managing_director', roleText: 'Geschäftsführerin' },
    ]);
  });

  it('reads a team page\'s name and role pairs, on one line or two', () => {
    expect(named(peopleOf('<h2>Our team</h2><h3>Maria Lopez</h3><p>Founder &amp; CEO</p><h3>Tom Reed</h3><p>Office Manager</p><h3>Ana Silva</h3><p>Dental Hygienist</p>')))
      .toEqual([{ name: 'Maria Lopez', role: 'owner', roleText: 'Founder & CEO' }, { name: 'Tom Reed', role: 'manager', roleText: 'Office Manager' }]);
    expect(named(peopleOf('<p>Peter Hall, Managing Director</p>'))).toEqual([{ name: 'Peter Hall', role: 'managing_director', roleText: 'Managing Director' }]);
    // A customer's review signed with the customer's trade is no one of the business.
    expect(peopleOf('<blockquote>Great service!</blockquote><p>Ravi Menon</p><p>Garment Distributor, India</p>')).toEqual([]);
  });

  it('reads the name an imprint or a trader\'s identity block opens with, as the owner', () => {
    expect(named(peopleOf('<h2>Impressum</h2><p>Alexander Haffner</p><p>Limburger Straße 20, 65510 Idstein</p>'))).toEqual([{ name: 'Alexander Haffner', role: 'owner' }]);
    expect(named(peopleOf('<h2>Kontakt</h2><p>Jana Novák</p><p>Hlavní 12</p><p>110 00 Praha</p><p>IČ: 12345678</p>'))).toEqual([{ name: 'Jana Novák', role: 'owner' }]);
    // A name over an address, with neither an imprint heading nor a register number, is not enough.
    expect(peopleOf('<h2>Visit us</h2><p>Jana Novák</p><p>Hlavní 12</p>')).toEqual([]);
  });

  it('reads schema.org: a Person with its job title, an organisation\'s founder and employees, microdata', () => {
    expect(named(peopleOf(jsonLd({ '@type': 'Dentist', name: 'Bright Smiles', founder: { '@type': 'Person', name: 'Dr. Lisa Chen' } }))))
      .toEqual([{ name: 'Dr. Lisa Chen', role: 'owner', roleText: 'founder' }]);
    expect(personOf(jsonLd({ '@type': 'Bakery', name: 'Crumbs', founder: 'Tom Baker' }))).toBe('Tom Baker');
    expect(named(peopleOf(jsonLd({ '@type': 'LocalBusiness', name: 'Roofs', employee: [{ '@type': 'Person', name: 'Ian Moss', jobTitle: 'General Manager' }] }))))
      .toEqual([{ name: 'Ian Moss', role: 'manager', roleText: 'General Manager' }]);
    expect(named(peopleOf('<div itemscope itemtype="https://schema.org/Person"><span itemprop="name">Olga Berg</span>, <span itemprop="jobTitle">Owner</span></div>')))
      .toEqual([{ name: 'Olga Berg', role: 'owner', roleText: 'Owner' }]);
    // The web agency that wrote the page is someone else.
    expect(personOf(jsonLd({ '@type': 'Bakery', name: 'Crumbs', author: { '@type': 'Person', name: 'Web Wizard Pat' } }))).toBeUndefined();
  });

  it('reads the signature under a contact page\'s greeting', () => {
    expect(personOf('<p>Wir freuen uns auf Ihren Anruf.</p><p>Mit freundlichen Grüßen</p><p>Petra Schmidt</p>')).toBe('Petra Schmidt');
    expect(personOf('<p>Kind regards, Oliver Twist</p>')).toBe('Oliver Twist');
  });

  it('keeps the page that names each person', () => {
    const found = extractContacts([
      { url: 'https://bakery.example/', html: '<p>Welcome!</p>' },
      { url: 'https://bakery.example/impressum', html: '<p>Inhaberin: Clara Weiß</p>' },
    ]);
    expect(found.people).toEqual([{ name: 'Clara Weiß', role: 'owner', roleText: 'Inhaberin', page: 'https://bakery.example/impressum' }]);
  });

  it('is nobody when the labelled text is a company, an address or a role', () => {
    expect(personOf('<p>Inhaber: Sonnenschein Bäckerei GmbH</p>')).toBeUndefined();
    expect(personOf('<p>Geschäftsführung:</p><p>Hauptstraße 12</p>')).toBeUndefined();
    expect(personOf('<p>Owner: The Team</p>')).toBeUndefined();
    expect(personOf('<p>Partner</p><p>Kontakt Impressum</p>')).toBeUndefined();
    expect(personOf('<h2>Owner Benefits Program</h2>')).toBeUndefined();
    expect(personOf('<p>Co-founder: Lea Stein</p>')).toBe('Lea Stein');
    expect(personOf('<p>Our founders and staff welcome you.</p><p>Dr. Shapiro graduated from Emory.</p>')).toBeUndefined();
    expect(personOf('<h1>Bright Dental</h1><p>Call us on 020 7946 0123</p>')).toBeUndefined();
  });
});
