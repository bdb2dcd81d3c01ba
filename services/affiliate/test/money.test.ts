import { describe, expect, it } from 'vitest';
import { commissionCents, toCents, toDollars } from '../src/domain/cents.ts';
import { toDecimalString } from '../src/paypal/payoutsProvider.ts';
import { canonicalEmail } from '../src/domain/canonicalEmail.ts';
import { nextPayoutDate, payoutPeriod } from '../src/domain/payoutSchedule.ts';

describe('commission arithmetic in integer cents', () => {
  it('pays 10% of each plan exactly: $1.90, $4.90, $9.90', () => {
    expect([19, 49, 99].map((price) => toDollars(commissionCents(toCents(price))))).toEqual([1.9, 4.9, 9.9]);
  });

  it('rounds half a cent up and never drifts on float input', () => {
    expect(toCents(19.99)).toBe(1999);
    expect(commissionCents(1999)).toBe(200);
    expect(commissionCents(1994)).toBe(199);
    expect(commissionCents(1995)).toBe(200);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toDecimalString(10890)).toBe('108.90');
    expect(() => toCents(-1)).toThrow();
    expect(() => toCents(Number.NaN)).toThrow();
  });
});

describe('canonicalEmail', () => {
  it('sees one mailbox behind case, +tags and Gmail dots', () => {
    expect(canonicalEmail(' Ada.Lovelace+promo@GoogleMail.com ')).toBe('adalovelace@gmail.com');
    expect(canonicalEmail('ada+x@example.com')).toBe('ada@example.com');
    expect(canonicalEmail('a.da@example.com')).toBe('a.da@example.com');
  });
});

describe('payout schedule', () => {
  it('pays on the first of next month (UTC), across a year end', () => {
    expect(nextPayoutDate(new Date('2026-11-21T23:00:00Z')).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(nextPayoutDate(new Date('2026-12-31T23:59:59Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(payoutPeriod(new Date('2026-03-01T00:00:00Z'))).toBe('2026-03');
  });
});
