import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBillingForTest, type BillingUnderTest } from './support/billingUnderTest.ts';

describe('GET /api/payments/balance', () => {
  let billing: BillingUnderTest;
  beforeAll(async () => {
    billing = await startBillingForTest('pglite');
  });
  afterAll(async () => {
    await billing?.stop();
  });

  it("answers the signed-in user's balance from the ledger, and 401 without a token", async () => {
    const user = await billing.newUser();
    expect(await billing.call('GET', '/api/payments/balance', undefined, user.headers)).toEqual({ status: 200, body: { balance: 10 } });
    const admin = await billing.newUser('admin');
    await billing.call('POST', '/internal/credits/adjust', { user_id: user.id, delta: 25, actor_id: admin.id, idempotency_key: `adjust-${user.id}` }, billing.internal);
    expect((await billing.call('GET', '/api/payments/balance', undefined, user.headers)).body).toEqual({ balance: 35 });
    const anonymous = await billing.call('GET', '/api/payments/balance');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.detail).toEqual(expect.any(String));
  });
});
