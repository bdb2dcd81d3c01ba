import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresConfigured, type TestDatabaseKind } from '@leadforge/testing';
import { claimHashOf } from '../src/domain/promoClaims.ts';
import { startBillingForTest, type BillingUnderTest } from './support/billingUnderTest.ts';

const kinds: TestDatabaseKind[] = ['pglite', 'postgres'];

for (const kind of kinds) {
  describe.skipIf(kind === 'postgres' && !postgresConfigured)(`CBC500 promo on ${kind}${kind === 'postgres' && !postgresConfigured ? ' (skipped: no PostgreSQL; apt-get install -y postgresql)' : ''}`, () => {
    let b: BillingUnderTest;

    beforeAll(async () => { b = await startBillingForTest(kind); });
    afterAll(async () => b?.stop());

    const createOrder = (body: unknown = { plan: 'cbc500_promo', amount: 19, description: 'CBC Special - 500 leads' }) => b.call('POST', '/api/payments/create-order', body);
    const complete = (orderId: string) => b.call('POST', '/api/payments/complete-payment', { order_id: orderId, plan: 'cbc500_promo', promo_code: 'CBC500' });

    /** Claim tokens the promo page kept in each buyer's browser, by order. */
    const claimTokens = new Map<string, string>();
    /** What a registration from the buyer's browser puts on `user.registered` (auth hashes the token). */
    const withClaim = (orderId: string) => ({ promo_code: 'CBC500', order_id: orderId, promo_claim_hash: claimHashOf(claimTokens.get(orderId)!) });

    /** The promo page's flow: create the order, the buyer approves, complete it. */
    async function paidPromoOrder(): Promise<string> {
      const created = await createOrder();
      expect(created.status).toBe(200);
      expect(created.body.claim_token).toMatch(/^[\w-]{43}$/);
      claimTokens.set(created.body.order_id, created.body.claim_token);
      await b.call('POST', `/api/payments/test-checkout/${created.body.order_id}/approve`);
      expect((await complete(created.body.order_id)).body).toEqual({ success: true, order_id: created.body.order_id, status: 'completed' });
      return created.body.order_id;
    }

    const promoStatus = (orderId: string, headers: Record<string, string>) => b.call('GET', `/api/payments/promo-orders/${orderId}`, undefined, headers);

    it('sells the promo for $19 without an account, refusing any other price', async () => {
      const orderId = await paidPromoOrder();
      const purchase = await b.db('purchases').where({ provider_order_id: orderId }).first();
      expect(purchase).toMatchObject({ kind: 'promo', plan_id: 'cbc500_promo', amount_cents: 1900, credits: 500, status: 'completed', user_id: null });
      expect(await createOrder({ plan: 'cbc500_promo', amount: 1 })).toMatchObject({ status: 400, body: { detail: 'The CBC500 offer costs $19; prices are set by the server' } });
      expect(await createOrder({ plan: 'cbc500_promo', credits: 5000 })).toMatchObject({ status: 400, body: { detail: 'Unknown field: credits. The promo price is set by the server.' } });
      expect(await createOrder({ plan: 'growth' })).toMatchObject({ status: 400, body: { detail: 'plan must be cbc500_promo' } });
      expect((await createOrder({ plan: 'cbc500_promo' })).status).toBe(200);
    });

    it('refuses to complete an unapproved or unknown order, and completes a paid one idempotently', async () => {
      const created = await createOrder();
      expect(await complete(created.body.order_id)).toMatchObject({ status: 400, body: { detail: 'This payment has not been approved yet. Approve it in the PayPal window first.' } });
      expect(await complete('NO-SUCH-ORDER')).toMatchObject({ status: 404, body: { detail: 'Promo order not found' } });
      expect(await b.call('POST', '/api/payments/complete-payment', { order_id: created.body.order_id, plan: 'cbc500_promo', promo_code: 'FREE' }))
        .toMatchObject({ status: 400, body: { detail: 'promo_code must be CBC500' } });
      const orderId = await paidPromoOrder();
      expect((await complete(orderId)).body).toMatchObject({ success: true, status: 'completed' });
    });

    it('gives the account that registers with a paid order 510 credits, and tells it so', async () => {
      const orderId = await paidPromoOrder();
      const user = b.auth.user();
      expect((await promoStatus(orderId, user.headers)).body.outcome).toBe('processing');
      await b.registered(user.id, withClaim(orderId));
      expect(await b.balance(user.id)).toBe(510);
      expect((await promoStatus(orderId, user.headers)).body).toEqual({ order_id: orderId, outcome: 'claimed', credits: 500, message: 'CBC Special Promo applied: 500 credits were added to your account.' });
      const history = await b.call('GET', '/api/payments/history', undefined, user.headers);
      expect(history.body.purchases).toEqual([expect.objectContaining({ plan_id: 'cbc500_promo', amount: 19, credits: 500, status: 'completed' })]);
      const sale = await b.db('kit_outbox').whereRaw("envelope->>'type' = 'purchase.completed'").andWhereRaw("envelope->'data'->>'user_id' = ?", [user.id]);
      expect(sale.map((r) => r.envelope.data)).toEqual([expect.objectContaining({ plan_id: 'cbc500_promo', amount: 19, credits: 500 })]);
      const reasons = (await b.db('credit_ledger').where({ user_id: user.id }).orderBy('id')).map((e) => [e.reason, e.delta]);
      expect(reasons).toEqual([['signup', 10], ['promo', 500]]);
    });

    it('a promo order claimed by two registrations at once: one gets the 500 credits, the other a clear answer and a normal account', async () => {
      const orderId = await paidPromoOrder();
      const [first, second] = [b.auth.user(), b.auth.user()];
      await Promise.all([
        b.registered(first.id, withClaim(orderId)),
        b.registered(second.id, withClaim(orderId)),
      ]);
      const balances = [await b.balance(first.id), await b.balance(second.id)].sort((x, y) => x - y);
      expect(balances).toEqual([10, 510]);
      const loser = (await b.balance(first.id)) === 10 ? first : second;
      expect((await promoStatus(orderId, loser.headers)).body).toMatchObject({
        outcome: 'already_claimed',
        credits: 0,
        message: 'This promo order has already been used by another account. Your account was created with the 10 free signup credits. If you paid for this order yourself, please contact support.',
      });
      expect(await b.db('credit_ledger').where({ reason: 'promo', ref: `purchase:${(await b.db('purchases').where({ provider_order_id: orderId }).first()).id}` })).toHaveLength(1);
    });

    it('a later account cannot claim an order already used', async () => {
      const orderId = await paidPromoOrder();
      const owner = b.auth.user();
      await b.registered(owner.id, withClaim(orderId));
      const late = b.auth.user();
      await b.registered(late.id, { ...withClaim(orderId), promo_code: 'cbc500' });
      expect(await b.balance(owner.id)).toBe(510);
      expect(await b.balance(late.id)).toBe(10);
      expect((await promoStatus(orderId, late.headers)).body.outcome).toBe('already_claimed');
    });

    it('the order id alone claims nothing: only the registration from the paying browser gets the 500 credits', async () => {
      const orderId = await paidPromoOrder();
      const [withoutToken, withWrongToken, buyer] = [b.auth.user(), b.auth.user(), b.auth.user()];
      await b.registered(withoutToken.id, { promo_code: 'CBC500', order_id: orderId });
      await b.registered(withWrongToken.id, { promo_code: 'CBC500', order_id: orderId, promo_claim_hash: claimHashOf('a guess') });
      expect([await b.balance(withoutToken.id), await b.balance(withWrongToken.id)]).toEqual([10, 10]);
      expect((await promoStatus(orderId, withoutToken.headers)).body).toMatchObject({ outcome: 'claim_refused', credits: 0, message: expect.stringContaining('browser it was paid in') });
      await b.registered(buyer.id, withClaim(orderId));
      expect(await b.balance(buyer.id)).toBe(510);
    });

    it('registering with an unpaid or unknown order gives a normal account and says why', async () => {
      const unpaid = (await createOrder()).body.order_id;
      const a = b.auth.user();
      await b.registered(a.id, { promo_code: 'CBC500', order_id: unpaid });
      expect(await b.balance(a.id)).toBe(10);
      expect((await promoStatus(unpaid, a.headers)).body).toMatchObject({ outcome: 'not_paid', credits: 0 });

      const c = b.auth.user();
      await b.registered(c.id, { promo_code: 'CBC500', order_id: 'TESTNOSUCHORDER00' });
      expect(await b.balance(c.id)).toBe(10);
      expect((await promoStatus('TESTNOSUCHORDER00', c.headers)).body.outcome).toBe('not_found');

      const plain = await b.newUser();
      expect((await promoStatus(unpaid, plain.headers)).body.outcome).toBe('not_claimed');
      expect((await b.call('GET', `/api/payments/promo-orders/${unpaid}`)).status).toBe(401);
    });

    it('refunding a claimed promo order takes the 500 promo credits back', async () => {
      const orderId = await paidPromoOrder();
      const user = b.auth.user();
      await b.registered(user.id, withClaim(orderId));
      const purchase = await b.db('purchases').where({ provider_order_id: orderId }).first();
      const refund = await b.call('POST', `/internal/purchases/${purchase.id}/refund`, { actor_id: 'admin-1' }, b.internal);
      expect(refund.body).toMatchObject({ amount: 19, credits_reversed: 500 });
      expect(await b.balance(user.id)).toBe(10);
    });
  });
}
