import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineLead } from './support/engineStandIn.ts';
import { completedSearch, startLeadsUnderTest, type LeadsUnderTest } from './support/leadsUnderTest.ts';

describe('GET /api/lead-activity: the dashboard charts of the signed-in user\'s own searches', () => {
  let t: LeadsUnderTest;
  beforeAll(async () => {
    t = await startLeadsUnderTest('pglite');
  });
  afterAll(async () => t?.stop());

  const search = (user: string, leads: ReturnType<typeof engineLead>[]) => completedSearch(t, user, leads);
  const activity = (user: string, query = '') => t.call('GET', `/api/lead-activity${query}`, undefined, t.auth.tokenFor(user));
  const today = () => new Date().toISOString().slice(0, 10);

  it('lists 30 UTC days of zeros, oldest first and today last, for a user who never searched', async () => {
    const res = await activity('activity-newcomer');
    expect(res.status).toBe(200);
    expect(res.body.days).toHaveLength(30);
    expect(res.body.days.at(-1).date).toBe(today());
    expect(res.body.days[0].date < res.body.days[1].date).toBe(true);
    expect(res.body.days.every((d: Record<string, unknown>) => d.searches === 0 && d.leads === 0 && d.with_email === 0 && d.with_phone === 0 && d.verified_email === 0)).toBe(true);
  });

  it('counts today\'s searches, their leads and the leads with an email, a phone and a deliverable email; never another user\'s', async () => {
    await search('activity-owner', [
      engineLead(1, { email_deliverability: 'deliverable' }), engineLead(2, { email_deliverability: 'accept_all' }), engineLead(3, { email: '', email_deliverability: 'deliverable' }),
      engineLead(4, { phone: '' }),
    ]);
    await search('activity-owner', []);
    await search('activity-other', [engineLead(11, { email_deliverability: 'deliverable' }), engineLead(12, { email_deliverability: 'deliverable' })]);

    const mine = await activity('activity-owner', '?days=7');
    expect(mine.status).toBe(200);
    expect(mine.body.days).toHaveLength(7);
    expect(mine.body.days.at(-1)).toEqual({ date: today(), searches: 2, leads: 4, with_email: 3, with_phone: 3, verified_email: 1 });
    expect(mine.body.days.slice(0, -1).every((d: { searches: number }) => d.searches === 0)).toBe(true);

    const theirs = await activity('activity-other', '?days=1');
    expect(theirs.body.days).toEqual([{ date: today(), searches: 1, leads: 2, with_email: 2, with_phone: 2, verified_email: 2 }]);
  });

  it('refuses a days count it does not serve with a 400 and a detail, and a caller without a session with a 401', async () => {
    for (const query of ['?days=0', '?days=91', '?days=abc', '?days=2.5']) {
      const res = await activity('activity-owner', query);
      expect(res.status, query).toBe(400);
      expect(res.body.detail, query).toEqual(expect.any(String));
    }
    expect((await activity('activity-owner', '?days=0')).body.detail).toMatch(/days must be a whole number from 1 to 90/);
    const anonymous = await t.call('GET', '/api/lead-activity');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.detail).toEqual(expect.any(String));
  });
});
