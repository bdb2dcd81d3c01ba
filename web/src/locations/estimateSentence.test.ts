import { describe, expect, it } from 'vitest';
import { estimateSentence } from './estimateSentence';

const estimate = (count: number, industry: string) => ({ count, industry, location: 'Lindenfeld, Landkreis Bergstraße, Hessen, Germany', short_name: 'Lindenfeld, Germany', source: 'osm' as const });

describe('estimateSentence', () => {
  it('says about how many, in the place\'s short name', () => {
    expect(estimateSentence(estimate(40, 'dentist'))).toBe('About 40 dentists in Lindenfeld, Germany');
    expect(estimateSentence(estimate(1200, 'Dentists'))).toBe('About 1,200 dentists in Lindenfeld, Germany');
    expect(estimateSentence(estimate(3, 'bakery'))).toBe('About 3 bakeries in Lindenfeld, Germany');
    expect(estimateSentence(estimate(1, 'dentist'))).toBe('About 1 dentist in Lindenfeld, Germany');
  });

  it('says none are listed rather than "about 0"', () => {
    expect(estimateSentence(estimate(0, 'dentist'))).toBe('No dentists listed in Lindenfeld, Germany on the map yet');
  });
});
