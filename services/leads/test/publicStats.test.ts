import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measurePublicStats } from '../src/domain/publicStats.ts';
import { engineLead } from './support/engineStandIn.ts';
import { completedSearch, startLeadsUnderTest, type LeadsUnderTest } from './support/leadsUnderTest.ts';

describe('the public figures the home page claims', () => {
  let t: LeadsUnderTest;
  beforeAll(async () => {
    t = await startLeadsUnderTest('pglite');
  });
  afterAll(async () => t?.stop());

  const search = (user: string, leads: ReturnType<typeof engineLead>[]) => completedSearch(t, user, leads);

  it('measures nothing before any search, and says so with nulls, to anyone without a token', async () => {
    const res = await t.call('GET', '/api/lead-stats');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ period_days: 30, searches_completed: 0, leads_delivered: 0, median_seconds_to_results: null, emails_checked: 0, emails_deliverable_percent: null });
  });

  it('counts completed searches with leads, their median time to results, and the verdicts of their emails (unknown ones not checked)', async () => {
    await search('stats-user-1', [
      engineLead(1, { email_deliverability: 'deliverable' }), engineLead(2, { email_deliverability: 'deliverable' }), engineLead(3, { email_deliverability: 'accept_all' }),
      engineLead(4, { email_deliverability: 'unknown' }), engineLead(5, { email: '', email_deliverability: 'deliverable' }),
    ]);
    await search('stats-user-2', [engineLead(6, { email_deliverability: 'undeliverable' })]);
    // A search that found nothing measures no speed: it is not counted.
    await search('stats-user-3', []);
    const figures = await measurePublicStats(t.svc.ctx.db, new Date());
    expect(figures).toMatchObject({ searches_completed: 2, leads_delivered: 6, emails_checked: 4, emails_deliverable_percent: 50 });
    expect(figures.median_seconds_to_results).toEqual(expect.any(Number));
    expect(figures.median_seconds_to_results).toBeGreaterThanOrEqual(0);
    // Only the window's searches: nothing started in the last 30 days of a day 40 days ahead.
    expect(await measurePublicStats(t.svc.ctx.db, new Date(Date.now() + 40 * 86_400_000))).toMatchObject({ searches_completed: 0, emails_checked: 0, median_seconds_to_results: null });
  });
});
