import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBillingForTest, type BillingUnderTest } from './support/billingUnderTest.ts';

describe('GET /api/payments/credit-activity: the dashboard chart of the signed-in user\'s credits', () => {
  let b: BillingUnderTest;
  beforeAll(async () => { b = await startBillingForTest('pglite'); });
  afterAll(async () => b?.stop());

  const today = () => new Date().toISOString().slice(0, 10);
  const activity = (headers: Record<string, string>, query = '') => b.call('GET', `/api/payments/credit-activity${query}`, undefined, headers);
  const reserve = (userId: string, amount: number) => {
    const key = crypto.randomUUID();
    return b.call('POST', '/internal/reservations', { user_id: userId, amount, ref: `search:${key}`, idempotency_key: key }, b.internal);
  };
  const buy = async (headers: Record<string, string>, plan: string) => {
    const created = await b.call('POST', '/api/payments/create', { plan_id: plan, return_url: 'http://localhost:8080/credits', cancel_url: 'http://localhost:8080/credits' }, headers);
    const approved = await b.call('POST', `/api/payments/test-checkout/${created.body.payment_id}/approve`);
    const executed = await b.call('POST', '/api/payments/execute', { payment_id: created.body.payment_id, payer_id: approved.body.payer_id }, headers);
    expect(executed.body).toMatchObject({ success: true });
  };

  it('lists 30 UTC days of zeros for a user who only got the signup grant (a grant is not bought)', async () => {
    const user = await b.newUser();
    const res = await activity(user.headers);
    expect(res.status).toBe(200);
    expect(res.body.days).toHaveLength(30);
    expect(res.body.days.at(-1).date).toBe(today());
    expect(res.body.days.every((d: { bought: number; used: number }) => d.bought === 0 && d.used === 0)).toBe(true);
  });

  it('counts credits bought and what each search finally charged (a running search at its hold); never another user\'s', async () => {
    const user = await b.newUser();
    const other = await b.newUser();
    await buy(user.headers, 'starter');
    const settled = await reserve(user.id, 8);
    expect(settled.status).toBe(201);
    await b.call('POST', `/internal/reservations/${settled.body.reservation_id}/settle`, { charge: 5 }, b.internal);
    const released = await reserve(user.id, 4);
    await b.call('POST', `/internal/reservations/${released.body.reservation_id}/release`, undefined, b.internal);
    expect((await reserve(user.id, 3)).status).toBe(201);
    await buy(other.headers, 'growth');
    await reserve(other.id, 2);

    const mine = await activity(user.headers, '?days=3');
    expect(mine.body.days).toHaveLength(3);
    expect(mine.body.days.at(-1)).toEqual({ date: today(), bought: 100, used: 8 });
    expect(mine.body.days.slice(0, -1).map((d: { bought: number; used: number }) => d.bought + d.used)).toEqual([0, 0]);
    expect((await activity(other.headers, '?days=1')).body.days).toEqual([{ date: today(), bought: 330, used: 2 }]);
  });

  it('refuses a days count it does not serve with a 400 and a detail, and a caller without a session with a 401', async () => {
    const user = await b.newUser();
    for (const query of ['?days=0', '?days=91', '?days=soon']) {
      const res = await activity(user.headers, query);
      expect(res.status, query).toBe(400);
      expect(res.body.detail, query).toMatch(/days must be a whole number from 1 to 90/);
    }
    const anonymous = await b.call('GET', '/api/payments/credit-activity');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.detail).toEqual(expect.any(String));
  });
});
