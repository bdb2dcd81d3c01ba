import { describe, expect, it } from 'vitest';
import { nameWordOf, normaliseIndustry, osmTagsOf } from '../../src/places/osmIndustryTags.ts';

const COMMON_INDUSTRIES = [
  'dentist', 'doctor', 'clinic', 'hospital', 'pharmacy', 'physiotherapist', 'psychologist', 'optician', 'vet',
  'nursing home', 'plumber', 'electrician', 'carpenter', 'roofer', 'painter', 'locksmith', 'hvac', 'builder',
  'landscaper', 'tiler', 'glazier', 'welder', 'tailor', 'cleaning service', 'laundry', 'restaurant', 'cafe', 'bar',
  'fast food', 'ice cream', 'nightclub', 'bakery', 'patisserie', 'butcher', 'grocery store', 'liquor store',
  'brewery', 'florist', 'hotel', 'hostel', 'bed and breakfast', 'vacation rental', 'hair salon', 'barber',
  'beauty salon', 'massage', 'tattoo', 'gym', 'yoga studio', 'lawyer', 'notary', 'accountant', 'real estate',
  'insurance', 'financial advisor', 'bank', 'architect', 'engineer', 'it services', 'marketing agency',
  'consultant', 'coworking', 'travel agency', 'mechanic', 'car dealer', 'car wash', 'tire shop', 'car rental',
  'gas station', 'taxi', 'driving school', 'school', 'daycare', 'language school', 'music school', 'bookstore',
  'clothing store', 'shoe store', 'jeweler', 'furniture store', 'hardware store', 'electronics store',
  'phone repair', 'computer repair', 'bike shop', 'sports shop', 'toy store', 'pet store', 'dog grooming',
  'kennel', 'photographer', 'print shop', 'funeral home', 'wedding venue', 'self storage',
];

describe('industry to OSM tags', () => {
  it('knows at least 60 common industries', () => {
    const unknown = COMMON_INDUSTRIES.filter((industry) => osmTagsOf(industry).length === 0);
    expect(unknown).toEqual([]);
    expect(COMMON_INDUSTRIES.length).toBeGreaterThanOrEqual(60);
  });

  it('reads plurals, synonyms, case and accents', () => {
    expect(osmTagsOf('Dentists')).toEqual([['amenity', 'dentist'], ['healthcare', 'dentist']]);
    expect(osmTagsOf('dental clinics')).toEqual(osmTagsOf('dentist'));
    expect(osmTagsOf('Attorneys')).toEqual([['office', 'lawyer']]);
    expect(osmTagsOf('Real Estate Agencies')).toEqual([['office', 'estate_agent'], ['shop', 'estate_agent']]);
    expect(osmTagsOf('bakeries')).toEqual([['shop', 'bakery']]);
    expect(osmTagsOf('Cafés')).toEqual([['amenity', 'cafe']]);
    expect(osmTagsOf('coffee shops')).toEqual([['amenity', 'cafe']]);
  });

  it('finds a known industry inside a longer phrase', () => {
    expect(osmTagsOf('emergency plumbers')).toEqual([['craft', 'plumber']]);
    expect(osmTagsOf('24 hour locksmith near me')).toEqual([['craft', 'locksmith'], ['shop', 'locksmith']]);
  });

  it('falls back to a name word for industries it does not know', () => {
    expect(osmTagsOf('chimney sweeps')).toEqual([]);
    expect(nameWordOf('chimney sweeps')).toBe('chimney');
    expect(normaliseIndustry('  Pest-Control  Companies ')).toBe('pest control company');
  });
});
