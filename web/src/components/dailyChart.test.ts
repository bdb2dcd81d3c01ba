import { describe, expect, it } from 'vitest';
import { chartSummary, dayLabel } from './DailyChart';

const whole = (n: number) => String(n);

describe('what a screen reader hears for a daily chart', () => {
  it('says the total, on how many days, and the busiest day with its figure', () => {
    expect(chartSummary('Leads delivered', [0, 4, 0, 9], ['2026-11-29', '2026-11-30', '2026-12-01', '2026-12-02'], whole))
      .toBe('Leads delivered: 13 over the last 4 days, on 2 days; the most on Dec 2 (9)');
  });

  it('says a chart with nothing in it is zero, in the same words as the others', () => {
    expect(chartSummary('Revenue', [0, 0], ['2026-12-01', '2026-12-02'], (n) => `$${n.toFixed(2)}`)).toBe('Revenue: $0.00 over the last 2 days, nothing on any day');
  });

  it('names a day in UTC whatever the reader\'s zone', () => {
    expect(dayLabel('2026-01-01')).toBe('Jan 1');
  });
});
