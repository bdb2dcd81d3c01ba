import { describe, expect, it } from 'vitest';
import { countOf, countOfIndustry, industryPlural, industrySingular } from '../src/industryWords.ts';

describe('industry words', () => {
  it('makes the plural of the last word, keeping what was typed around it', () => {
    expect(industryPlural('dentist')).toBe('dentists');
    expect(industryPlural('pharmacy')).toBe('pharmacies');
    expect(industryPlural('hair salon')).toBe('hair salons');
    expect(industryPlural('Car wash')).toBe('Car washes');
    expect(industryPlural('church')).toBe('churches');
    expect(industryPlural('business')).toBe('businesses');
    expect(industryPlural('attorney')).toBe('attorneys');
    expect(industryPlural('handyman')).toBe('handymen');
    expect(industryPlural('  Pizza restaurant ')).toBe('Pizza restaurants');
  });

  it('keeps words that are already plural or have none', () => {
    for (const word of ['dentists', 'Hair salons', 'pharmacies', 'software', 'real estate', 'plumbing', 'catering', 'fitness', 'IT', 'logistics', 'news', 'people']) {
      expect(industryPlural(word)).toBe(word);
    }
  });

  it('keeps the case the user typed', () => {
    expect(industryPlural('Dentist')).toBe('Dentists');
    expect(industryPlural('PHARMACY')).toBe('PHARMACIES');
  });

  it('leaves a phrase it cannot read as typed', () => {
    expect(industryPlural('北京')).toBe('北京');
    expect(industryPlural('dentist (kids)')).toBe('dentist (kids)');
    expect(industryPlural('')).toBe('');
  });

  it('makes the singular back, for a count of one', () => {
    expect(industrySingular('dentists')).toBe('dentist');
    expect(industrySingular('Pharmacies')).toBe('Pharmacy');
    expect(industrySingular('hair salons')).toBe('hair salon');
    expect(industrySingular('businesses')).toBe('business');
    expect(industrySingular('car washes')).toBe('car wash');
    expect(industrySingular('dentist')).toBe('dentist');
    expect(industrySingular('software')).toBe('software');
    expect(industrySingular('fitness')).toBe('fitness');
  });

  it('counts an industry and a noun in agreement', () => {
    expect(countOfIndustry(5, 'dentist')).toBe('5 dentists');
    expect(countOfIndustry(1, 'Dentists')).toBe('1 Dentist');
    expect(countOfIndustry(0, 'pharmacy')).toBe('0 pharmacies');
    expect(countOfIndustry(1200, 'hair salon')).toBe('1,200 hair salons');
    expect(countOfIndustry(5, 'dentist', 'new')).toBe('5 new dentists');
    expect(countOf(1, 'lead')).toBe('1 lead');
    expect(countOf(3, 'lead')).toBe('3 leads');
    expect(countOf(2, 'business')).toBe('2 businesses');
    expect(countOf(1, 'search')).toBe('1 search');
  });
});
