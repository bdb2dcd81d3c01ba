import { describe, expect, it } from 'vitest';
import type { LeadStats, SearchCoverage } from '@leadforge/contracts';
import { coverageSentence } from './CoverageSentence';

const coverage = (over: Partial<SearchCoverage> = {}): SearchCoverage => ({
  area: { name: 'Würzburg', boundary: 'polygon' },
  sources: { osm: { requests: 1, places: 120 }, google: { requests: 9, places: 160 } },
  cells_searched: 3, cells_saturated: 0, provider_requests: 11, places_found: 170, places_outside_area: 8, duplicates_merged: 110, exhausted: true,
  ...over,
});
const stats = (over: Partial<LeadStats> = {}): LeadStats => ({
  total_found: 143, with_email: 120, with_phone: 130, with_website: 97, credits_used: 143, remaining_credits: 57, skipped_owned: 12, ...over,
});
const search = { industry: 'Dentists', quantity: 200 };

describe('the coverage sentence', () => {
  it('says the whole area was searched, and that the user was charged only for what exists', () => {
    expect(coverageSentence(coverage(), stats(), search)).toBe(
      'Searched all of Würzburg: 170 dentists there, 143 new with contact details (97 with a website); 12 you already have were skipped. Charged for those 143, not 200.',
    );
    expect(coverageSentence(coverage(), stats({ skipped_owned: 0 }), search)).toBe(
      'Searched all of Würzburg: 170 dentists there, 143 with contact details (97 with a website). Charged for those 143, not 200.',
    );
  });

  it('says nothing was charged when the user already had every one there', () => {
    expect(coverageSentence(coverage(), stats({ total_found: 0, with_website: 0, with_email: 0, with_phone: 0, credits_used: 0, skipped_owned: 155 }), search)).toBe(
      'Searched all of Würzburg: 170 dentists there, 0 new with contact details; 155 you already have were skipped. Nothing charged.',
    );
  });

  it('counts the industry as typed in the singular or the plural, one or many', () => {
    expect(coverageSentence(coverage({ places_found: 30 }), stats({ skipped_owned: 0 }), { industry: 'dentist', quantity: 200 })).toMatch(/^Searched all of Würzburg: 30 dentists there,/);
    expect(coverageSentence(coverage({ places_found: 1 }), stats({ total_found: 1, with_website: 1, skipped_owned: 0 }), { industry: 'Pharmacies', quantity: 200 })).toMatch(/^Searched all of Würzburg: 1 pharmacy there, 1 with contact details/);
    expect(coverageSentence(coverage({ exhausted: false }), stats({ total_found: 12, skipped_owned: 0 }), { industry: 'hair salon', quantity: 200 })).toBe('Searched Würzburg as far as this search could: 12 hair salons.');
  });

  it('says the search stopped at the quantity when more exist', () => {
    expect(coverageSentence(coverage({ exhausted: false }), stats({ total_found: 200 }), search)).toBe('Stopped at your 200 — more exist in Würzburg.');
  });

  it('names a source that failed', () => {
    const failed = coverage({ exhausted: false, sources: { osm: { requests: 1, places: 120 }, google: { requests: 1, places: 0, error: 'Google Places API error: PERMISSION_DENIED' } } });
    expect(coverageSentence(failed, stats({ total_found: 80, skipped_owned: 0 }), search)).toBe(
      'Searched Würzburg as far as this search could: 80 dentists. The google source could not be searched.',
    );
  });

  it('says nothing before the engine has', () => {
    expect(coverageSentence(undefined, stats(), search)).toBeNull();
  });
});
