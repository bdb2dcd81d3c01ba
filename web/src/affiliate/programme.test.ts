import { describe, expect, it } from 'vitest';
import { validateApplication } from './applicationValidation';
import { COMMISSION_EXAMPLES, formatDate, formatUsd } from './programme';

describe('the commission table', () => {
  it('shows 10% of each pack: $1.90, $4.90, $9.90', () => {
    expect(COMMISSION_EXAMPLES.map(({ plan, commission }) => [plan.name, formatUsd(commission)])).toEqual([
      ['Starter', '$1.90'],
      ['Growth', '$4.90'],
      ['Agency', '$9.90'],
    ]);
  });

  it('writes payout dates as a person reads them, in UTC', () => {
    expect(formatDate('2026-12-01')).toBe('December 1, 2026');
    expect(formatDate('2027-01-01T00:00:00.000Z')).toBe('January 1, 2027');
  });
});

describe('validateApplication', () => {
  it('requires a name and an email, nothing else', () => {
    const blank = { name: '', email: '', website: '', message: '' };
    expect(validateApplication(blank)).toBe('Please fill in all required fields');
    expect(validateApplication({ ...blank, name: 'Ann', email: '   ' })).toBe('Please fill in all required fields');
    expect(validateApplication({ ...blank, name: 'Ann', email: 'ann@example.com' })).toBeNull();
  });
});
