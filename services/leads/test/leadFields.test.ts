import { describe, expect, it } from 'vitest';
import { cleanText, fingerprintOf, leadKeyOf, safeWebsite, toStoredLead } from '../src/domain/leadFields.ts';
import { Suppressions } from '../src/domain/suppressions.ts';
import { engineLead } from './support/engineStandIn.ts';

describe('lead fields from the engine', () => {
  it('keeps a website only when it is an absolute http(s) URL', () => {
    expect(safeWebsite('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(safeWebsite('http://example.com')).toBe('http://example.com/');
    for (const bad of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'data:text/html,<b>x</b>', 'vbscript:x', 'ftp://example.com', 'example.com', '//example.com', '', 42]) {
      expect(safeWebsite(bad)).toBe('');
    }
  });

  it('makes scraped text one clean line, without control or bidi-override characters, capped', () => {
    expect(cleanText('  Bright\n\tSmiles\u0000 Dental  ')).toBe('Bright Smiles Dental');
    expect(cleanText('evil\u202Egnp.exe')).toBe('evil gnp.exe');
    expect(cleanText('x'.repeat(1000))).toHaveLength(300);
    expect(cleanText(undefined)).toBe('');
  });

  it('replaces half a surrogate pair, which PostgreSQL json refuses, also where the cap cuts a pair in two', () => {
    expect(cleanText('a\ud800b\udfffc')).toBe('a\ufffdb\ufffdc');
    expect(cleanText('ok \ud83d\ude00')).toBe('ok \ud83d\ude00');
    expect(cleanText('ab\ud83d\ude00', 3)).toBe('ab\ufffd');
    expect(leadKeyOf({ key: 'osm:node/1\u0000\ud800' })).toBe('osm:node/1 \ufffd');
  });

  it('keeps the people with a name, a known role (else other), their role as written and an http(s) page', () => {
    const lead = toStoredLead(engineLead(1, {
      people: [
        { name: ' Eva\u202e Roth ', role: 'owner', role_text: 'Inh.', source: 'https://x.test/impressum' },
        { name: 'Paul Roth', role: 'boss' as 'other', source: 'javascript:alert(1)' },
        { name: '  ', role: 'owner' },
      ],
    }));
    expect(lead.people).toEqual([
      { name: 'Eva Roth', role: 'owner', role_text: 'Inh.', source: 'https://x.test/impressum' },
      { name: 'Paul Roth', role: 'other' },
    ]);
    expect(toStoredLead(engineLead(2))).not.toHaveProperty('people');
  });

  it('loses its people with its name when its whole site is opted out, keeps them for an opted-out email', () => {
    const lead = toStoredLead(engineLead(3, { website: 'https://bakery.example/', email: 'anna@bakery.example', people: [{ name: 'Owner 3', role: 'owner' }] }));
    const site = new Suppressions(new Set(), new Set(), new Set(['bakery.example'])).blank(lead);
    expect(site).toMatchObject({ name: '', removed: expect.arrayContaining(['name']) });
    expect(site).not.toHaveProperty('people');
    expect(new Suppressions(new Set(['anna@bakery.example']), new Set(), new Set()).blank(lead).people).toEqual([{ name: 'Owner 3', role: 'owner' }]);
  });

  it('drops social links that are not http(s)', () => {
    const lead = toStoredLead(engineLead(1, { socials: [{ network: 'facebook', url: 'https://facebook.com/x' }, { network: 'evil', url: 'javascript:alert(1)' }] }));
    expect(lead.socials).toEqual([{ network: 'facebook', url: 'https://facebook.com/x' }]);
  });

  it('gives the same business reached the same way one fingerprint, whatever its place id or URL form', () => {
    const a = toStoredLead(engineLead(1, { website: 'https://www.brightsmiles1.example/' }));
    const b = toStoredLead(engineLead(1, { key: 'other', company: 'BRIGHT SMILES DENTAL 1', website: 'https://brightsmiles1.example', phone: '+1 555 010 0001' }));
    expect(fingerprintOf(a)).toBe(fingerprintOf(b));
    expect(fingerprintOf(a)).not.toBe(fingerprintOf(toStoredLead(engineLead(2))));
  });
});
