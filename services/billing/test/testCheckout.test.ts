import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresConfigured, type TestDatabaseKind } from '@leadforge/testing';
import { startBillingForTest, type BillingUnderTest } from './support/billingUnderTest.ts';

const kinds: TestDatabaseKind[] = ['pglite', 'postgres'];

for (const kind of kinds) {
  describe.skipIf(kind === 'postgres' && !postgresConfigured)(`plan purchases through the built-in test checkout on ${kind}${kind === 'postgres' && !postgresConfigured ? ' (skipped: no PostgreSQL; apt-get install -y postgresql)' : ''}`, () => {
    let b: BillingUnderTest;

    beforeAll(async () => { b = await startBillingForTest(kind); });
    afterAll(async () => b?.stop());

    it('tells the browser to use the test checkout when no PayPal credentials are configured', async () => {
      expect(await b.call('GET', '/api/payments/config')).toEqual({ status: 200, body: { client_id: '', mode: 'test', currency: 'USD', intent: 'capture' } });
    });

    it('buys the Growth plan: create, approve, execute; 330 credits added once and the sale announced', async () => {
      const user = await b.newUser();
      const created = await b.call('POST', '/api/payments/create', { plan_id: 'growth', return_url: 'http://localhost:8080/credits', cancel_url: 'http://localhost:8080/credits' }, user.headers);
      expect(created.status).toBe(200);
      expect(created.body.payment_id).toMatch(/^TEST[0-9A-F]{13}$/);
      const paymentId = created.body.payment_id;

      const early = await b.call('POST', '/api/payments/execute', { payment_id: paymentId, payer_id: 'X' }, user.headers);
      expect(early).toMatchObject({ status: 400, body: { detail: 'This payment has not been approved yet. Approve it in the PayPal window first.' } });

      const approved = await b.call('POST', `/api/payments/test-checkout/${paymentId}/approve`);
      expect(approved.body).toMatchObject({ order_id: paymentId, status: 'APPROVED' });
      const executed = await b.call('POST', '/api/payments/execute', { payment_id: paymentId, payer_id: approved.body.payer_id }, user.headers);
      expect(executed).toEqual({ status: 200, body: { success: true, credits_added: 330, status: 'completed' } });
      const again = await b.call('POST', '/api/payments/execute', { payment_id: paymentId, payer_id: approved.body.payer_id }, user.headers);
      expect(again.body).toMatchObject({ success: true, credits_added: 330 });
      expect(await b.balance(user.id)).toBe(340);

      const history = await b.call('GET', '/api/payments/history', undefined, user.headers);
      expect(history.body.purchases).toHaveLength(1);
      expect(history.body.purchases[0]).toMatchObject({ plan_id: 'growth', amount: 49, credits: 330, status: 'completed' });
      expect(Date.parse(history.body.purchases[0].completed_at)).toBeGreaterThan(Date.now() - 60_000);

      const sale = await b.db('kit_outbox').whereRaw("envelope->>'type' = 'purchase.completed'").andWhereRaw("envelope->'data'->>'user_id' = ?", [user.id]);
      // The sale says it went through the test checkout: admin keeps it out of revenue.
      expect(sale.map((r) => r.envelope.data)).toEqual([expect.objectContaining({ plan_id: 'growth', amount: 49, currency: 'USD', credits: 330, test: true })]);
    });

    it('charges what the plan table says, whatever the client sends', async () => {
      const user = await b.newUser();
      const cases: [unknown, string][] = [
        [{ plan_id: 'growth', price: 1 }, 'Unknown field: price. Prices are set by the server from the plan table; send only plan_id.'],
        [{ plan_id: 'growth', amount: 0.01 }, 'Unknown field: amount. Prices are set by the server from the plan table; send only plan_id.'],
        [{ plan_id: 'enterprise' }, 'Unknown plan: choose starter, growth or agency'],
        [{ plan_id: 'growth', credits: 100000 }, 'Unknown field: credits. Prices are set by the server from the plan table; send only plan_id.'],
        [{}, 'plan_id is required'],
        [{ plan_id: 'starter', return_url: 'javascript:alert(1)' }, 'return_url and cancel_url must be http(s) URLs'],
      ];
      for (const [body, detail] of cases) {
        const answer = await b.call('POST', '/api/payments/create', body, user.headers);
        expect({ body, status: answer.status, detail: answer.body.detail }).toEqual({ body, status: 400, detail });
      }
      expect(await b.db('purchases').where({ user_id: user.id })).toHaveLength(0);
      const agency = await b.call('POST', '/api/payments/create', { plan_id: 'agency' }, user.headers);
      const row = await b.db('purchases').where({ provider_order_id: agency.body.payment_id }).first();
      expect(row).toMatchObject({ plan_id: 'agency', amount_cents: 9900, credits: 1100, currency: 'USD', provider_mode: 'test', status: 'created' });
      const order = await b.db('test_checkout_orders').where({ id: agency.body.payment_id }).first();
      expect(order).toMatchObject({ amount_value: '99.00', currency: 'USD' });
    });

    it('needs a signed-in user, and never executes someone else\'s payment', async () => {
      expect((await b.call('POST', '/api/payments/create', { plan_id: 'starter' })).status).toBe(401);
      expect((await b.call('GET', '/api/payments/history')).status).toBe(401);
      const owner = await b.newUser();
      const other = await b.newUser();
      const created = await b.call('POST', '/api/payments/create', { plan_id: 'starter' }, owner.headers);
      await b.call('POST', `/api/payments/test-checkout/${created.body.payment_id}/approve`);
      const stolen = await b.call('POST', '/api/payments/execute', { payment_id: created.body.payment_id }, other.headers);
      expect(stolen).toMatchObject({ status: 404, body: { detail: 'Payment not found' } });
      expect(await b.balance(other.id)).toBe(10);
      expect((await b.call('POST', '/api/payments/execute', { payment_id: 'NOPE' }, owner.headers)).status).toBe(404);
      expect((await b.call('POST', '/api/payments/test-checkout/NOPE/approve')).status).toBe(404);
    });

    it('lists the newest purchases first and honours the limit', async () => {
      const user = await b.newUser();
      for (const plan of ['starter', 'growth', 'agency']) {
        const { body } = await b.call('POST', '/api/payments/create', { plan_id: plan }, user.headers);
        await b.call('POST', `/api/payments/test-checkout/${body.payment_id}/approve`);
        await b.call('POST', '/api/payments/execute', { payment_id: body.payment_id }, user.headers);
      }
      const all = await b.call('GET', '/api/payments/history', undefined, user.headers);
      expect(all.body.purchases.map((p: { plan_id: string }) => p.plan_id)).toEqual(['agency', 'growth', 'starter']);
      const two = await b.call('GET', '/api/payments/history?limit=2', undefined, user.headers);
      expect(two.body.purchases).toHaveLength(2);
      expect((await b.call('GET', '/api/payments/history?limit=0', undefined, user.headers)).body.detail).toBe('limit must be a whole number from 1 to 100');
      expect(await b.balance(user.id)).toBe(10 + 100 + 330 + 1100);
    });

    it('refunds a test purchase within 7 days and takes the credits back', async () => {
      const user = await b.newUser();
      const { body } = await b.call('POST', '/api/payments/create', { plan_id: 'starter' }, user.headers);
      await b.call('POST', `/api/payments/test-checkout/${body.payment_id}/approve`);
      await b.call('POST', '/api/payments/execute', { payment_id: body.payment_id }, user.headers);
      const purchase = await b.db('purchases').where({ provider_order_id: body.payment_id }).first();
      const refund = await b.call('POST', `/internal/purchases/${purchase.id}/refund`, { actor_id: 'admin-1', reason: 'customer asked' }, b.internal);
      expect(refund.body).toMatchObject({ status: 'refunded', amount: 19, credits_reversed: 100, credits_shortfall: 0 });
      expect(await b.balance(user.id)).toBe(10);
      const order = await b.db('test_checkout_orders').where({ id: body.payment_id }).first();
      expect(order.refund_id).toMatch(/^TESTREF/);
    });
  });
}
