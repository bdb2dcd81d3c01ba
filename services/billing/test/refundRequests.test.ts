import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS } from '@leadforge/contracts';
import { postgresConfigured, waitFor, type TestDatabaseKind } from '@leadforge/testing';
import { startBillingForTest, type BillingUnderTest } from './support/billingUnderTest.ts';
import { startPaypalStandIn, type PaypalStandIn } from './support/paypalStandIn.ts';

const kinds: TestDatabaseKind[] = ['pglite', 'postgres'];
const skipped = (kind: TestDatabaseKind) => kind === 'postgres' && !postgresConfigured;
const label = (kind: TestDatabaseKind) => `${kind}${skipped(kind) ? ' (skipped: no PostgreSQL; apt-get install -y postgresql)' : ''}`;

type User = Awaited<ReturnType<BillingUnderTest['newUser']>>;

/** Buys through the built-in test checkout as the Credits page does; answers the purchase row. */
async function buyWithTestCheckout(b: BillingUnderTest, user: User, planId: string) {
  const { body } = await b.call('POST', '/api/payments/create', { plan_id: planId }, user.headers);
  await b.call('POST', `/api/payments/test-checkout/${body.payment_id}/approve`);
  expect((await b.call('POST', '/api/payments/execute', { payment_id: body.payment_id }, user.headers)).status).toBe(200);
  return b.db('purchases').where({ provider_order_id: body.payment_id }).first();
}

async function spend(b: BillingUnderTest, user: User, amount: number) {
  const held = await b.call('POST', '/internal/reservations', { user_id: user.id, amount, ref: 'search:test', idempotency_key: `spend-${user.id}-${amount}` }, b.internal);
  await b.call('POST', `/internal/reservations/${held.body.reservation_id}/settle`, { charge: amount }, b.internal);
}

const refundAnnouncements = (b: BillingUnderTest, purchaseId: string) =>
  b.db('kit_outbox').whereRaw("envelope->>'type' = 'purchase.refunded'").andWhereRaw("envelope->'data'->>'purchase_id' = ?", [purchaseId]);

for (const kind of kinds) {
  describe.skipIf(skipped(kind))(`refund requests with the built-in test checkout on ${label(kind)}`, () => {
    let b: BillingUnderTest;
    let admin: User;

    beforeAll(async () => {
      b = await startBillingForTest(kind);
      admin = await b.newUser('admin');
    });
    afterAll(async () => b?.stop());

    it('refunds an unspent test purchase at once, and says in the admin queue that the test checkout ran', async () => {
      const user = await b.newUser();
      const purchase = await buyWithTestCheckout(b, user, 'starter');
      const asked = await b.call('POST', `/api/payments/purchases/${purchase.id}/refund-request`, { reason: 'Bought the wrong pack' }, user.headers);
      expect(asked.body).toMatchObject({ request: { status: 'refunded', instant: true, amount_refunded: 19, credits_reversed: 100 }, message: 'Refunded $19.00; 100 credits left your balance.' });
      expect(await b.balance(user.id)).toBe(10);
      const order = await b.db('test_checkout_orders').where({ purchase_id: purchase.id }).first();
      expect(order).toMatchObject({ refund_id: expect.stringMatching(/^TESTREF/), refund_amount_value: '19.00' });
      const all = await b.call('GET', '/api/admin/refunds?status=all', undefined, admin.headers);
      expect(all.body.requests.find((r: { purchase_id: string }) => r.purchase_id === purchase.id)).toMatchObject({ provider_mode: 'test', status: 'refunded', refund_id: order.refund_id });
      expect((await refundAnnouncements(b, purchase.id)).map((r) => r.envelope.data)).toEqual([expect.objectContaining({ amount: 19, credits_reversed: 100 })]);
    });

    it('queues a used pack; a partial approval refunds that amount through the test checkout and its share of credits', async () => {
      const user = await b.newUser();
      const purchase = await buyWithTestCheckout(b, user, 'growth');
      await spend(b, user, 100);
      const { body } = await b.call('POST', `/api/payments/purchases/${purchase.id}/refund-request`, { reason: 'Too many leads without email' }, user.headers);
      expect(body.request).toMatchObject({ status: 'pending' });
      const open = await b.call('GET', '/api/admin/refunds', undefined, admin.headers);
      expect(open.body).toMatchObject({ open: expect.any(Number), total: expect.any(Number) });
      expect(open.body.requests.find((r: { id: string }) => r.id === body.request.id)).toMatchObject({ unspent_credits: 240, provider_mode: 'test' });
      const approved = await b.call('POST', `/api/admin/refunds/${body.request.id}/approve`, { amount: 24.5, reason: 'Half back' }, admin.headers);
      expect(approved.body).toMatchObject({ request: { status: 'refunded', amount_refunded: 24.5, credits_reversed: 165 } });
      expect(approved.body.message).toBe('Refunded $24.50 through the test checkout (no money moved); 165 credits removed.');
      expect(await b.balance(user.id)).toBe(340 - 100 - 165);
      expect(await b.db('test_checkout_orders').where({ purchase_id: purchase.id }).first()).toMatchObject({ refund_amount_value: '24.50' });
      expect(await b.db('purchases').where({ id: purchase.id }).first()).toMatchObject({ status: 'refunded', refunded_cents: 2450, credits_reversed: 165, refunded_by: admin.id });
    });

    it('refuses outside the window, twice, and for purchases of someone else', async () => {
      const user = await b.newUser();
      const purchase = await buyWithTestCheckout(b, user, 'starter');
      const other = await b.newUser();
      expect(await b.call('POST', `/api/payments/purchases/${purchase.id}/refund-request`, { reason: 'not mine' }, other.headers))
        .toMatchObject({ status: 404, body: { code: 'purchase_not_found' } });
      await b.db('purchases').where({ id: purchase.id }).update({ completed_at: b.db.raw("now() - interval '8 days'") });
      const late = await b.call('POST', `/api/payments/purchases/${purchase.id}/refund-request`, { reason: 'Too late?' }, user.headers);
      expect(late.status).toBe(400);
      expect(late.body.code).toBe('refund_window_passed');
      expect(late.body.detail).toMatch(/^Refunds can be requested within 7 days of purchase; this one was completed on \d{4}-\d{2}-\d{2}$/);
      expect((await b.call('GET', '/api/payments/history', undefined, user.headers)).body.purchases[0]).toMatchObject({ refund_request: null, refundable_until: null });
      expect(await b.balance(user.id)).toBe(110);
    });

    it('answers many parallel clicks with one refund', async () => {
      const user = await b.newUser();
      const purchase = await buyWithTestCheckout(b, user, 'growth');
      const answers = await Promise.all(Array.from({ length: 10 }, () => b.call('POST', `/api/payments/purchases/${purchase.id}/refund-request`, { reason: 'double click' }, user.headers)));
      expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(9).fill(409)]);
      expect(await b.balance(user.id)).toBe(10);
      expect(await b.db('credit_ledger').where({ user_id: user.id, reason: 'refund' })).toHaveLength(1);
      expect(await refundAnnouncements(b, purchase.id)).toHaveLength(1);
    });

    it('puts refund requests in the account\'s data export, and forgets who asked and why when the account is deleted', async () => {
      const user = await b.newUser();
      const purchase = await buyWithTestCheckout(b, user, 'starter');
      await b.call('POST', `/api/payments/purchases/${purchase.id}/refund-request`, { reason: 'Personal reason' }, user.headers);
      const exported = await b.call('POST', '/internal/account-data/export', { user_id: user.id, email: 'someone@example.com' }, b.internal);
      expect(exported.body.refund_requests).toEqual([expect.objectContaining({ purchase_id: purchase.id, status: 'refunded', reason: 'Personal reason', amount_refunded: 19 })]);
      await b.bus.publish([{
        topic: TOPICS.authUser,
        key: user.id,
        envelope: { id: crypto.randomUUID(), type: 'account.deleted', version: 1, occurred_at: new Date().toISOString(), key: user.id, data: { user_id: user.id, email_sha256: 'x'.repeat(64), deleted_at: new Date().toISOString() } },
      }]);
      const erased = await waitFor(() => b.db('refund_requests').where({ purchase_id: purchase.id }).first(), { until: (r) => r.reason === null, what: 'the request erased' });
      expect(erased).toMatchObject({ user_email: null, user_name: null, reason: null, status: 'refunded', amount_cents: 1900 });
    });
  });

  describe.skipIf(skipped(kind))(`refund requests against the PayPal stand-in on ${label(kind)}`, () => {
    let paypal: PaypalStandIn;
    let b: BillingUnderTest;
    let admin: User;

    beforeAll(async () => {
      paypal = await startPaypalStandIn();
      b = await startBillingForTest(kind, { ...paypal.env, PAYPAL_TIMEOUT_MS: '800', PAYPAL_RETRIES: '0' });
      admin = await b.newUser('admin');
    });
    afterAll(async () => {
      await b?.stop();
      await paypal?.close();
    });

    async function paidGrowth(user: User) {
      const created = await b.call('POST', '/api/payments/create', { plan_id: 'growth' }, user.headers);
      paypal.approve(created.body.payment_id);
      await b.call('POST', '/api/payments/execute', { payment_id: created.body.payment_id }, user.headers);
      return { orderId: created.body.payment_id as string, purchase: await b.db('purchases').where({ provider_order_id: created.body.payment_id }).first() };
    }

    it('a lost PayPal answer leaves the refund processing with its credits held; the retry refunds once', async () => {
      const user = await b.newUser();
      const { orderId, purchase } = await paidGrowth(user);
      paypal.failNext('refund', 'status500-after');
      const asked = await b.call('POST', `/api/payments/purchases/${purchase.id}/refund-request`, { reason: 'Changed my mind' }, user.headers);
      expect(asked.body).toMatchObject({ request: { status: 'processing', credits_reversed: 330 } });
      expect(await b.balance(user.id)).toBe(10);
      const queued = (await b.call('GET', '/api/admin/refunds?status=processing', undefined, admin.headers)).body.requests.find((r: { purchase_id: string }) => r.purchase_id === purchase.id);
      expect(queued.last_error).toBe('PayPal did not answer; retrying is safe (the same refund is never made twice)');
      expect(await b.call('POST', `/api/admin/refunds/${queued.id}/decline`, { reason: 'not now' }, admin.headers)).toMatchObject({ status: 409, body: { code: 'refund_in_progress' } });
      const retried = await b.call('POST', `/api/admin/refunds/${queued.id}/approve`, { reason: 'retry' }, admin.headers);
      expect(retried.body).toMatchObject({ request: { status: 'refunded', credits_reversed: 330, last_error: null } });
      expect(paypal.refundsOf(orderId)).toHaveLength(1);
      expect(await b.balance(user.id)).toBe(10);
    });

    it('a refund PayPal refuses can be declined, and its held credits come back', async () => {
      const user = await b.newUser();
      const { orderId, purchase } = await paidGrowth(user);
      // Refunded in full in PayPal's dashboard, its webhook not delivered yet; a partial approval then exceeds what is left.
      await spend(b, user, 50);
      const { body } = await b.call('POST', `/api/payments/purchases/${purchase.id}/refund-request`, { reason: 'Please refund' }, user.headers);
      const capture = paypal.orders.get(orderId)!.capture!;
      capture.refundedCents = 4900;
      const refused = await b.call('POST', `/api/admin/refunds/${body.request.id}/approve`, { amount: 10, reason: 'part' }, admin.headers);
      // Fully refunded already counts as done (the money is back): the request finishes.
      expect(refused.body.request).toMatchObject({ status: 'refunded' });

      const second = await b.newUser();
      const next = await paidGrowth(second);
      await spend(b, second, 50);
      const asked = await b.call('POST', `/api/payments/purchases/${next.purchase.id}/refund-request`, { reason: 'Please refund' }, second.headers);
      paypal.orders.get(next.orderId)!.capture!.refundedCents = 4000;
      const exceeded = await b.call('POST', `/api/admin/refunds/${asked.body.request.id}/approve`, { amount: 20, reason: 'part' }, admin.headers);
      expect(exceeded.body).toMatchObject({ request: { status: 'processing', last_error: 'PayPal refused the refund (REFUND_AMOUNT_EXCEEDED)' } });
      expect(await b.balance(second.id)).toBe(290 - 135);
      const declined = await b.call('POST', `/api/admin/refunds/${asked.body.request.id}/decline`, { reason: 'PayPal refused; refunded by hand' }, admin.headers);
      expect(declined.body.request).toMatchObject({ status: 'declined' });
      expect(await b.balance(second.id)).toBe(290);
    });

    it('a PENDING refund from PayPal still finishes the request', async () => {
      const user = await b.newUser();
      const { purchase } = await paidGrowth(user);
      paypal.setRefundStatus('PENDING');
      try {
        const asked = await b.call('POST', `/api/payments/purchases/${purchase.id}/refund-request`, { reason: 'Changed my mind' }, user.headers);
        expect(asked.body.request).toMatchObject({ status: 'refunded' });
      } finally {
        paypal.setRefundStatus('COMPLETED');
      }
    });
  });
}
