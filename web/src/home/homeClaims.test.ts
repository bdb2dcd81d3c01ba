import { describe, expect, it } from 'vitest';
import type { PublicLeadStats } from '@leadforge/contracts';
import { emailCheckClaim, speedClaim } from './homeClaims';

const measured = (over: Partial<PublicLeadStats> = {}): PublicLeadStats => ({
  period_days: 30, searches_completed: 12, leads_delivered: 240, median_seconds_to_results: 41, emails_checked: 180, emails_deliverable_percent: 71.1,
  generated_at: '2026-12-02T05:00:00.000Z', ...over,
});

describe('the home page claims', () => {
  it('says the measured median time to results, over how many searches', () => {
    expect(speedClaim(measured())).toEqual({
      value: '41s',
      label: 'median from search to results (12 searches, last 30 days)',
      sentence: 'Over the last 30 days, half of the 12 searches with leads had their results within 41 seconds.',
    });
    expect(speedClaim(measured({ searches_completed: 1, median_seconds_to_results: 200 }))).toEqual({
      value: '3 min',
      label: 'median from search to results (1 search, last 30 days)',
      sentence: 'Over the last 30 days, the one search with leads had its results in 3 minutes.',
    });
  });

  it('claims no speed it did not measure', () => {
    for (const stats of [undefined, measured({ searches_completed: 0, median_seconds_to_results: null })]) {
      expect(speedClaim(stats)).toEqual({ value: 'Live', label: 'results appear as they are found', sentence: 'A larger search takes longer.' });
    }
  });

  it('gives the share of checked emails judged deliverable, or no figure when none was checked', () => {
    expect(emailCheckClaim(measured())).toMatchObject({ value: '71.1%', label: 'of checked emails judged deliverable (last 30 days)' });
    expect(emailCheckClaim(measured()).sentence).toContain('71.1% of 180 checked emails deliverable');
    // Every verdict "unknown" (the check off or unanswered): no accuracy figure at all.
    const unmeasured = emailCheckClaim(measured({ emails_checked: 0, emails_deliverable_percent: null }));
    expect(unmeasured).toMatchObject({ value: 'Verdict', label: 'on every email: deliverable, undeliverable, accept all or unknown' });
    expect(JSON.stringify(unmeasured)).not.toMatch(/\d+%/);
    expect(emailCheckClaim(undefined)).toEqual(unmeasured);
  });
});
