import { describe, expect, it } from 'vitest';
import { LEAD_VERDICT_COLUMNS, leadsExportFileName } from '@leadforge/contracts';
import { csvRecord, neutraliseCell } from '../src/domain/csvCells.ts';

describe('CSV cells', () => {
  it('puts a quote before every value a spreadsheet would read as a formula', () => {
    for (const value of ['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\tTAB', '\rCR', '=HYPERLINK("http://x","y")', '+44 20 7946 0958', '-', '+']) {
      expect(neutraliseCell(value)).toBe(`'${value}`);
    }
  });

  it('leaves ordinary values and international phone numbers as they are', () => {
    for (const value of ['', 'Bright Smiles', 'a=b', 'hello@example.com', '+442079460123', '+15550100001', 'Zürich', '北京', "'quoted"]) {
      expect(neutraliseCell(value)).toBe(value);
    }
  });

  it('writes the decision-maker\'s role, normalised and as written, from the people (the stored jsonb text or parsed)', () => {
    const people = [{ name: 'Eva Roth', role: 'managing_director' as const, role_text: '=Geschäftsführerin', source: 'https://x.test/impressum' }, { name: 'Paul Roth', role: 'partner' as const }];
    const lead = { name: 'Eva Roth', company: 'C', email: 'E', phone: 'P', website: 'W', city: 'Ci' };
    expect(csvRecord({ ...lead, people }).slice(9, 11)).toEqual(['Managing director', "'=Geschäftsführerin"]);
    expect(csvRecord({ ...lead, people: JSON.stringify(people) }).slice(9, 11)).toEqual(['Managing director', "'=Geschäftsführerin"]);
    // Rows stored before people were found have none: empty cells.
    expect(csvRecord({ ...lead, people: null }).slice(9, 11)).toEqual(['', '']);
  });

  it('writes a lead in the spec\'s column order, its address, country and social profiles, then the verdict and provenance columns (empty when unknown)', () => {
    expect(csvRecord({ name: 'N', company: 'C', email: 'E', phone: '=P', website: 'W', city: 'Ci' }))
      .toEqual(['N', 'C', 'E', "'=P", 'W', 'Ci', '', '', '', '', '', ...LEAD_VERDICT_COLUMNS.map(() => '')]);
    expect(csvRecord({
      name: 'N', company: 'C', email: 'E', phone: 'P', website: 'W', city: 'Ci', address: '=1 Main St', country: 'DE',
      socials: '[{"network":"facebook","url":"https://facebook.com/c"},{"network":"x","url":"https://x.com/c"}]',
      removed: ['socials'],
    }).slice(6, 9)).toEqual(["'=1 Main St", 'DE', "Removed at the owner's request"]);
    expect(csvRecord({
      name: 'N', company: 'C', email: 'E', phone: 'P', website: 'W', city: 'Ci',
      socials: [{ network: 'facebook', url: 'https://facebook.com/c' }, { network: 'x', url: 'https://x.com/c' }],
    })[8]).toBe('https://facebook.com/c; https://x.com/c');
    const fetched = new Date('2026-11-24T10:00:00Z');
    expect(csvRecord({
      name: 'N', company: 'C', email: 'anna@x.test', phone: '+4933224288333', website: 'W', city: 'Ci',
      email_deliverability: 'deliverable', email_type: 'personal', email_checked_at: fetched, email_mx_host: 'mx.x.test', email_smtp_code: 250,
      email_source: 'https://x.test/kontakt', email_fetched_at: fetched,
      phone_type: 'fixed_line', phone_source: '=https://x.test/', phone_fetched_at: '2026-11-24T10:00:00.000Z',
    })).toEqual(['N', 'C', 'anna@x.test', '+4933224288333', 'W', 'Ci', '', '', '', '', '',
      'deliverable', 'personal', '2026-11-24T10:00:00.000Z', 'mx.x.test', '250', 'https://x.test/kontakt', '2026-11-24T10:00:00.000Z', 'fixed_line', "'=https://x.test/", '2026-11-24T10:00:00.000Z']);
  });
});

describe('export file name', () => {
  it('is leadforge-{industry}-{location}-{YYYY-MM-DD}.csv, safe on every system', () => {
    expect(leadsExportFileName('Dentists', 'New York', '2025-03-04T22:10:00Z')).toBe('leadforge-dentists-new-york-2025-03-04.csv');
    expect(leadsExportFileName('Café & Bäckerei', 'São Paulo, SP', new Date('2025-12-31T23:59:59Z'))).toBe('leadforge-cafe-backerei-sao-paulo-sp-2025-12-31.csv');
    expect(leadsExportFileName('../../etc/passwd', '"; rm -rf /', '2025-01-01T00:00:00Z')).toBe('leadforge-etc-passwd-rm-rf-2025-01-01.csv');
    expect(leadsExportFileName('北京', 'x'.repeat(500), '2025-01-01T00:00:00Z')).toBe(`leadforge-any-${'x'.repeat(40)}-2025-01-01.csv`);
  });

  it('says when it holds only part of the search: what a filter showed, or the selected rows', () => {
    expect(leadsExportFileName('dentist', 'Lindenfeld', '2026-12-02T05:00:00Z', 'csv', { kind: 'filtered', shown: 3, total: 50 })).toBe('leadforge-dentist-lindenfeld-2026-12-02-filtered-3-of-50.csv');
    expect(leadsExportFileName('dentist', 'Lindenfeld', '2026-12-02T05:00:00Z', 'xlsx', { kind: 'selected', count: 2 })).toBe('leadforge-dentist-lindenfeld-2026-12-02-selected-2.xlsx');
    expect(leadsExportFileName('dentist', 'Lindenfeld', '2026-12-02T05:00:00Z', 'json', { kind: 'all' })).toBe('leadforge-dentist-lindenfeld-2026-12-02.json');
  });
});
