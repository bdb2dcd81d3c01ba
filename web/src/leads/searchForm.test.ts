import { describe, expect, it } from 'vitest';
import { creditShortfall, maxHint, maxQuantity, parseQuantity, searchFormError } from './searchForm';

describe('the lead search form rules', () => {
  it('turns a non-numeric quantity into 0', () => {
    expect(parseQuantity('abc')).toBe(0);
    expect(parseQuantity('')).toBe(0);
    expect(parseQuantity(' 25 ')).toBe(25);
    expect(parseQuantity('12.9')).toBe(12);
  });

  it('caps the quantity at the smaller of 200 and the credits, and says so', () => {
    expect(maxQuantity(5)).toBe(5);
    expect(maxQuantity(1000)).toBe(200);
    expect(maxQuantity(0)).toBe(0);
    expect(maxHint(37)).toBe('Max: 37 (based on your credits)');
    expect(maxHint(200)).toBe('Max: 200 per search (you have 200 credits)');
    expect(maxHint(290)).toBe('Max: 200 per search (you have 290 credits)');
  });

  it('gives the spec\'s messages', () => {
    expect(searchFormError({ industry: ' ', location: 'Austin', quantity: '10' }, 50)).toBe('Please fill in both industry and location fields');
    expect(searchFormError({ industry: 'Dentists', location: '', quantity: '10' }, 50)).toBe('Please fill in both industry and location fields');
    expect(searchFormError({ industry: 'Dentists', location: 'Austin', quantity: '20' }, 15)).toBe('Insufficient credits. You have 15 credits but need 20.');
    expect(creditShortfall(15, 15)).toBeNull();
    expect(searchFormError({ industry: 'Dentists', location: 'Austin', quantity: 'abc' }, 50)).toBe('Please enter a quantity from 1 to 50');
    expect(searchFormError({ industry: 'Dentists', location: 'Austin', quantity: '201' }, 500)).toBe('Please enter a quantity from 1 to 200');
    expect(searchFormError({ industry: 'Dentists', location: 'Austin', quantity: '0' }, 0)).toBe('Insufficient credits. You have 0 credits but need 1.');
    expect(searchFormError({ industry: 'Dentists', location: 'Austin', quantity: '10' }, 10)).toBeNull();
  });
});
