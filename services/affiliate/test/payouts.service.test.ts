import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresConfigured, startServiceForTest, type TestDatabaseKind } from '@leadforge/testing';
import { createMemoryBus } from '@leadforge/kit/events';
import type { RunningService } from '@leadforge/kit/service';
import type { Bus } from '@leadforge/kit/events';
import affiliateService from '../src/index.ts';
import { payoutPeriod } from '../src/domain/payoutSchedule.ts';
import { payoutsProvider } from '../src/runtime.ts';
import { startAuthStandIn, type StandInUser } from './support/authStandIn.ts';
import { publishEvent } from './support/events.ts';
import { startPaypalPayoutsStandIn } from './support/paypalPayoutsStandIn.ts';

const DAY_MS = 24 * 3600 * 1000;
const kinds: TestDatabaseKind[] = ['pglite', 'postgres'];

/** YYYY-MM of `monthsAgo` months before now (UTC). */
function periodAgo(monthsAgo: number): string {
  const now = new Date();
  return payoutPeriod(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsAgo, 15)));
}

for (const kind of kinds) {
  describe.skipIf(kind === 'postgres' && !postgresConfigured)(`affiliate payouts through a PayPal Payouts stand-in on ${kind}${kind === 'postgres' && !postgresConfigured ? ' (skipped: no PostgreSQL; apt-get install -y postgresql)' : ''}`, () => {
    let svc: RunningService;
    let bus: Bus;
    let auth: Awaited<ReturnType<typeof startAuthStandIn>>;
    let paypal: Awaited<ReturnType<typeof startPaypalPayoutsStandIn>>;
    const admin: StandInUser = { id: crypto.randomUUID(), name: 'Admin', email: 'admin@example.com', role: 'admin' };

    const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(`${svc.url}${path}`, {
        method,
        headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };
    const runBatch = (period: string) => call('POST', '/api/admin/affiliate-payouts', { period }, auth.bearer(admin));
    const statement = async (user: StandInUser) => (await call('GET', '/api/affiliate/commissions?page_size=100', undefined, auth.bearer(user))).body;

    /** A referrer whose referred buyers bought `plans`, `daysAgo` days ago (past the 7-day hold when > 7). */
    async function referrerWithSales(label: string, plans: { plan: string; amount: number }[], daysAgo: number) {
      const referrer: StandInUser = { id: crypto.randomUUID(), name: label, email: `${label.toLowerCase()}-${crypto.randomBytes(3).toString('hex')}@example.com` };
      await publishEvent(bus, 'user.registered', referrer.id, { user_id: referrer.id, name: referrer.name, email: referrer.email, role: 'user', status: 'active', created_at: new Date().toISOString() });
      const purchases = await addSales(referrer, plans, daysAgo);
      return { referrer, purchases };
    }

    async function addSales(referrer: StandInUser, plans: { plan: string; amount: number }[], daysAgo: number) {
      const { referral_code: code } = (await call('GET', '/api/affiliate/stats', undefined, auth.bearer(referrer))).body;
      const token = (await call('POST', '/api/affiliate/referral-visits', { code })).body.referral_token;
      const purchases: { buyerId: string; purchaseId: string }[] = [];
      for (const { plan, amount } of plans) {
        const buyerId = crypto.randomUUID();
        await publishEvent(bus, 'user.registered', buyerId, { user_id: buyerId, name: 'Buyer', email: `buyer-${buyerId}@example.com`, role: 'user', status: 'active', created_at: new Date().toISOString(), referral_code: token });
        const purchaseId = `PUR-${crypto.randomUUID()}`;
        await publishEvent(bus, 'purchase.completed', buyerId, { purchase_id: purchaseId, user_id: buyerId, plan_id: plan, amount, currency: 'USD', credits: 1100, completed_at: new Date(Date.now() - daysAgo * DAY_MS).toISOString() });
        purchases.push({ buyerId, purchaseId });
      }
      return purchases;
    }
    const agency = (n: number) => Array.from({ length: n }, () => ({ plan: 'agency', amount: 99 }));

    beforeAll(async () => {
      [auth, paypal] = await Promise.all([startAuthStandIn(), startPaypalPayoutsStandIn()]);
      bus = createMemoryBus();
      svc = await startServiceForTest(affiliateService, {
        kind,
        bus,
        env: { AUTH_URL: auth.url, PAYPAL_API_BASE: paypal.url, PAYPAL_CLIENT_ID: paypal.credentials.clientId, PAYPAL_CLIENT_SECRET: paypal.credentials.clientSecret, AFFILIATE_REFERRAL_SECRET: '', AFFILIATE_VISITS_PER_IP_PER_MINUTE: '10000', AFFILIATE_APPLY_PER_IP_PER_HOUR: '10000' },
      });
    });
    afterAll(async () => {
      await svc?.stop();
      await bus?.close();
      await Promise.all([auth?.close(), paypal?.close()]);
    });

    let r1: Awaited<ReturnType<typeof referrerWithSales>>;
    let r2: Awaited<ReturnType<typeof referrerWithSales>>;
    let r3: Awaited<ReturnType<typeof referrerWithSales>>;

    it('pays every referrer past $50 once, to their application email, however often and concurrently the batch is started', async () => {
      r1 = await referrerWithSales('Reseller', agency(6), 8);
      r2 = await referrerWithSales('Small', [{ plan: 'growth', amount: 49 }], 8);
      r3 = await referrerWithSales('Recent', agency(6), 1);
      const applied = await call('POST', '/api/affiliate/apply', { name: 'Reseller', email: 'reseller-paypal@example.com' }, auth.bearer(r1.referrer));
      expect(applied.status).toBe(201);

      const period = periodAgo(3);
      // Eight runs at once, with referrers reading their statements (which mature commissions) meanwhile.
      const [runs] = await Promise.all([
        Promise.all(Array.from({ length: 8 }, () => runBatch(period))),
        Promise.all([r1, r2, r3, r1].map(({ referrer }) => statement(referrer))),
      ]);
      expect(new Set(runs.map((r) => r.status))).toEqual(new Set([200]));
      expect(new Set(runs.map((r) => r.body.id)).size).toBe(1);
      const batch = (await runBatch(period)).body;
      expect(batch).toMatchObject({
        period,
        sender_batch_id: `leadforge-affiliate-${period}`,
        status: 'submitted',
        mode: 'paypal',
        paypal_batch_status: 'PENDING',
        total: 59.4,
        items: [{ referrer_id: r1.referrer.id, receiver: 'reseller-paypal@example.com', amount: 59.4, commissions: 6 }],
        error: null,
      });
      expect(paypal.batches.size).toBe(1);
      expect(paypal.state.createCalls).toBe(1);
      expect(paypal.batches.get(batch.sender_batch_id)!.items).toEqual([expect.objectContaining({ amount: { value: '59.40', currency: 'USD' }, receiver: 'reseller-paypal@example.com', recipient_type: 'EMAIL' })]);

      const paid = await statement(r1.referrer);
      expect(paid.totals).toEqual({ pending: 0, payable: 0, paid: 59.4 });
      expect(new Set(paid.commissions.map((c: { status: string }) => c.status))).toEqual(new Set(['paid']));
      expect((await statement(r2.referrer)).totals).toEqual({ pending: 0, payable: 4.9, paid: 0 });
      expect((await statement(r3.referrer)).totals).toEqual({ pending: 59.4, payable: 0, paid: 0 });
      const announced = await svc.ctx.db('kit_outbox').where({ topic: 'affiliate.commission' }).whereRaw("envelope->'data'->>'status' = 'paid'");
      expect(announced).toHaveLength(6);
    });

    it('marks a batch PayPal did not accept as failed, and pays it once when retried', async () => {
      const r4 = await referrerWithSales('Retry', agency(6), 9);
      paypal.state.failNext = 'error';
      const period = periodAgo(2);
      const failed = (await runBatch(period)).body;
      expect(failed).toMatchObject({ status: 'failed', paypal_batch_id: null, error: expect.stringContaining('PayPal answered 500 INTERNAL_SERVICE_ERROR') });
      expect((await statement(r4.referrer)).totals).toEqual({ pending: 0, payable: 59.4, paid: 0 });

      const retried = (await runBatch(period)).body;
      expect(retried).toMatchObject({ id: failed.id, status: 'submitted', error: null, items: [{ referrer_id: r4.referrer.id, amount: 59.4 }] });
      expect(paypal.paidTo(r4.referrer.email)).toBe(59.4);
    });

    it('finds a batch whose answer was lost instead of paying it twice', async () => {
      const r5 = await referrerWithSales('Lost', agency(6), 10);
      paypal.state.failNext = 'lose-answer';
      const period = periodAgo(1);
      expect((await runBatch(period)).body.status).toBe('failed');
      const recovered = (await runBatch(period)).body;
      expect(recovered.status).toBe('submitted');
      expect(recovered.paypal_batch_id).toBe(paypal.batches.get(recovered.sender_batch_id)!.payoutBatchId);
      expect(paypal.paidTo(r5.referrer.email)).toBe(59.4);
    });

    it('nets a refund made after a payout against the next payout, and rolls a balance under $50 over', async () => {
      await publishEvent(bus, 'purchase.refunded', r1.purchases[0].buyerId, { purchase_id: r1.purchases[0].purchaseId, user_id: r1.purchases[0].buyerId, amount: 99, credits_reversed: 1100, refunded_at: new Date().toISOString() });
      const afterRefund = await statement(r1.referrer);
      expect(afterRefund.commissions.find((c: { purchase_id: string }) => c.purchase_id === r1.purchases[0].purchaseId)).toMatchObject({ status: 'reversed', amount: 0 });

      // 6 x $9.90 new, less the $9.90 already paid for the refunded sale: $49.50, under the minimum.
      await addSales(r1.referrer, agency(6), 8);
      const period = periodAgo(0);
      const empty = (await runBatch(period)).body;
      expect(empty).toMatchObject({ status: 'empty', items: [], total: 0 });

      await addSales(r1.referrer, agency(1), 8);
      const batch = (await runBatch(period)).body;
      expect(batch).toMatchObject({ status: 'submitted', items: [{ referrer_id: r1.referrer.id, amount: 59.4, commissions: 8 }] });
      expect(paypal.paidTo('reseller-paypal@example.com')).toBe(118.8);
      expect((await statement(r1.referrer)).totals).toEqual({ pending: 0, payable: 0, paid: 118.8 });
      expect((await statement(r2.referrer)).totals.payable).toBe(4.9);
    });

    it('lists the batches for admins only and refuses a future or malformed period', async () => {
      const list = await call('GET', '/api/admin/affiliate-payouts', undefined, auth.bearer(admin));
      expect(list.body.batches.map((b: { period: string }) => b.period)).toEqual([periodAgo(0), periodAgo(1), periodAgo(2), periodAgo(3)]);
      const someone: StandInUser = { id: crypto.randomUUID(), name: 'Someone', email: 'someone@example.com' };
      expect((await call('GET', '/api/admin/affiliate-payouts', undefined, auth.bearer(someone))).status).toBe(403);
      expect((await call('POST', '/api/admin/affiliate-payouts', {})).status).toBe(401);
      const future = payoutPeriod(new Date(Date.now() + 40 * DAY_MS));
      expect(await runBatch(future)).toEqual({ status: 400, body: { detail: 'A payout cannot run for a future month', code: 'future_period' } });
      expect((await runBatch('2026-13')).body.detail).toBe('period must be a month written YYYY-MM');
    });

    it('pays to the PayPal address the referrer set over their application\'s email, and lists applications to admins only', async () => {
      const r4 = await referrerWithSales('Chooser', agency(6), 8);
      await call('POST', '/api/affiliate/apply', { name: 'Chooser', email: 'chooser-application@example.com', website: 'chooser.example.com' }, auth.bearer(r4.referrer));
      expect((await call('GET', '/api/affiliate/stats', undefined, auth.bearer(r4.referrer))).body).toMatchObject({
        payout_email: 'chooser-application@example.com', payout_email_source: 'application',
        application: { name: 'Chooser', email: 'chooser-application@example.com', website: 'https://chooser.example.com/', message: null },
      });
      expect((await call('PUT', '/api/affiliate/payout-email', { paypal_email: 'not-an-address' }, auth.bearer(r4.referrer))).body.detail).toBe('Please enter a valid email address');
      expect((await call('PUT', '/api/affiliate/payout-email', { paypal_email: 'x@example.com' })).status).toBe(401);
      const set = await call('PUT', '/api/affiliate/payout-email', { paypal_email: ' Chooser-PayPal@Example.com ' }, auth.bearer(r4.referrer));
      expect(set).toEqual({ status: 200, body: { payout_email: 'chooser-paypal@example.com', payout_email_source: 'set' } });
      const batch = (await runBatch(periodAgo(4))).body;
      expect(batch.items).toContainEqual(expect.objectContaining({ referrer_id: r4.referrer.id, receiver: 'chooser-paypal@example.com', amount: 59.4 }));

      const listed = await call('GET', '/api/admin/affiliate-applications?page_size=1', undefined, auth.bearer(admin));
      expect(listed.body).toMatchObject({ page: { page: 1, page_size: 1, total: 2 }, applications: [{ name: 'Chooser', email: 'chooser-application@example.com', user_id: r4.referrer.id }] });
      expect((await call('GET', '/api/admin/affiliate-applications', undefined, auth.bearer(r4.referrer))).status).toBe(403);
    });
  });
}

describe('affiliate payouts without PayPal credentials in local mode', () => {
  it('uses the labelled test stand-in that moves no money', async () => {
    const auth = await startAuthStandIn();
    const bus = createMemoryBus();
    const svc = await startServiceForTest(affiliateService, { kind: 'pglite', bus, env: { AUTH_URL: auth.url, PAYPAL_CLIENT_ID: '', PAYPAL_CLIENT_SECRET: '' } });
    try {
      const admin: StandInUser = { id: crypto.randomUUID(), name: 'Admin', email: 'admin@example.com', role: 'admin' };
      const res = await fetch(`${svc.url}/api/admin/affiliate-payouts`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth.bearer(admin) }, body: '{}' });
      expect(await res.json()).toMatchObject({ period: payoutPeriod(new Date()), mode: 'test', status: 'empty' });
    } finally {
      await svc.stop();
      await bus.close();
      await auth.close();
    }
  });

  it('refuses production without PayPal credentials, and half a set of credentials anywhere', () => {
    expect(() => payoutsProvider({}, true)).toThrow('Configuration error: PAYPAL_CLIENT_ID is required (PayPal REST credentials for affiliate payouts)');
    expect(() => payoutsProvider({ PAYPAL_CLIENT_ID: 'id' }, false)).toThrow('Configuration error: PAYPAL_CLIENT_SECRET is required when the other PayPal credential is set');
    expect(payoutsProvider({}, false).mode).toBe('test');
    expect(payoutsProvider({ PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 'secret' }, true).mode).toBe('paypal');
  });
});
