import { describe, expect, it } from 'vitest';
import { backoffCeiling, backoffWithJitter } from '../src/work/backoff.ts';

describe('backoffWithJitter', () => {
  const options = { baseMs: 100, maxMs: 1_000 };

  it('doubles the ceiling with each attempt up to the maximum', () => {
    expect([1, 2, 3, 4, 5, 6].map((attempt) => backoffCeiling(attempt, options))).toEqual([100, 200, 400, 800, 1_000, 1_000]);
    expect(backoffCeiling(10_000, options)).toBe(1_000);
  });

  it('draws the wait evenly between nothing and the ceiling', () => {
    expect(backoffWithJitter(3, { ...options, random: () => 0 })).toBe(0);
    expect(backoffWithJitter(3, { ...options, random: () => 0.5 })).toBe(200);
    expect(backoffWithJitter(3, { ...options, random: () => 0.999_999 })).toBe(400);
  });

  it('spreads many waits for the same attempt instead of repeating one', () => {
    const waits = new Set(Array.from({ length: 50 }, () => backoffWithJitter(5, options)));
    expect(waits.size).toBeGreaterThan(10);
    for (const wait of waits) {
      expect(wait).toBeGreaterThanOrEqual(0);
      expect(wait).toBeLessThanOrEqual(1_000);
    }
  });
});
