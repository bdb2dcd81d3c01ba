import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payerKeys } from '@leadforge/kit/events';
import { postgresConfigured, waitFor, type TestDatabaseKind } from '@leadforge/testing';
import { recordCapture } from '../src/domain/purchases.ts';
import { startBillingForTest, type BillingUnderTest } from './support/billingUnderTest.ts';
import { startPaypalStandIn, type PaypalStandIn } from './support/paypalStandIn.ts';

const kinds: TestDatabaseKind[] = ['pglite', 'postgres'];
const UNAVAILABLE = 'PayPal did not answer while confirming the payment. Please try again in a moment.';

for (const kind of kinds) {
  describe.skipIf(kind === 'postgres' && !postgresConfigured)(`PayPal checkout against a PayPal stand-in on ${kind}${kind === 'postgres' && !postgresConfigured ? ' (skipped: no PostgreSQL; apt-get install -y postgresql)' : ''}`, () => {
    let paypal: PaypalStandIn;
    let b: BillingUnderTest;

    beforeAll(async () => {
      paypal = await startPaypalStandIn();
      // No automatic retries here, so each PayPal failure is what the user sees.
      b = await startBillingForTest(kind, { ...paypal.env, PAYPAL_TIMEOUT_MS: '800', PAYPAL_RETRIES: '0' });
    });
    afterAll(async () => {
      await b?.stop();
      await paypal?.close();
    });

    const postWebhook = (delivery: { rawBody: string; headers: Record<string, string> }) => b.call('POST', '/api/payments/webhook', delivery.rawBody, delivery.headers);
    const purchaseEntries = async (userId: string) => b.db('credit_ledger').where({ user_id: userId, reason: 'purchase' });
    const sales = async (userId: string) => b.db('kit_outbox').whereRaw("envelope->>'type' = 'purchase.completed'").andWhereRaw("envelope->'data'->>'user_id' = ?", [userId]);

    /** A user with an approved Growth order, ready to execute. */
    async function approvedGrowthOrder() {
      const user = await b.newUser();
      const created = await b.call('POST', '/api/payments/create', { plan_id: 'growth' }, user.headers);
      expect(created.status).toBe(200);
      paypal.approve(created.body.payment_id);
      const execute = () => b.call('POST', '/api/payments/execute', { payment_id: created.body.payment_id, payer_id: 'QYR5Z8XDVJNXQ' }, user.headers);
      return { user, orderId: created.body.payment_id as string, execute };
    }

    it('publishes the sandbox client id for the browser SDK', async () => {
      expect((await b.call('GET', '/api/payments/config')).body).toEqual({ client_id: paypal.env.PAYPAL_CLIENT_ID, mode: 'sandbox', currency: 'USD', intent: 'capture' });
    });

    it('says who paid in the sale it announces, as hashes of the PayPal account id and email, never the values', async () => {
      const user = await b.newUser();
      const created = await b.call('POST', '/api/payments/create', { plan_id: 'starter' }, user.headers);
      paypal.approve(created.body.payment_id, { accountId: 'WALLETACCOUNT1', email: 'Wallet.Owner@example.com' });
      expect((await b.call('POST', '/api/payments/execute', { payment_id: created.body.payment_id }, user.headers)).body).toMatchObject({ success: true });
      const [sale] = await sales(user.id);
      expect(sale.envelope.data.payer_keys).toEqual(payerKeys({ id: 'WALLETACCOUNT1', email: 'wallet.owner@example.com' }));
      expect(sale.envelope.data.payer_keys).toHaveLength(2);
      expect(JSON.stringify(sale.envelope)).not.toMatch(/WALLETACCOUNT1|wallet\.owner/i);
    });

    it('has no test checkout while real PayPal is configured', async () => {
      expect(await b.call('POST', '/api/payments/test-checkout/TESTABC/approve')).toMatchObject({ status: 404, body: { detail: 'The test checkout is not available: this server takes payments through PayPal' } });
    });

    it('creates the order as PayPal documents it: intent CAPTURE, USD, our price, our purchase id, a PayPal-Request-Id', async () => {
      const user = await b.newUser();
      const created = await b.call('POST', '/api/payments/create', { plan_id: 'growth', return_url: 'https://leadforge.example/credits', cancel_url: 'https://leadforge.example/credits' }, user.headers);
      expect(created.body.approve_url).toBe(`https://www.sandbox.paypal.com/checkoutnow?token=${created.body.payment_id}`);
      const purchase = await b.db('purchases').where({ provider_order_id: created.body.payment_id }).first();
      const order = paypal.orders.get(created.body.payment_id)!;
      expect(order.request).toMatchObject({
        intent: 'CAPTURE',
        purchase_units: [{ custom_id: purchase.id, invoice_id: purchase.id, amount: { currency_code: 'USD', value: '49.00' } }],
        payment_source: { paypal: { experience_context: { return_url: 'https://leadforge.example/credits', shipping_preference: 'NO_SHIPPING' } } },
      });
      expect(paypal.calls.find((c) => c.op === 'create' && c.path === '/v2/checkout/orders' && c.requestId === `create-${purchase.id}`)).toBeTruthy();
    });

    it('captures an approved order and grants 330 credits', async () => {
      const { user, execute } = await approvedGrowthOrder();
      expect((await execute()).body).toEqual({ success: true, credits_added: 330, status: 'completed' });
      expect(await b.balance(user.id)).toBe(340);
      const purchase = await b.db('purchases').where({ user_id: user.id }).first();
      expect(purchase).toMatchObject({ status: 'completed', provider_mode: 'sandbox', amount_cents: 4900 });
      expect(purchase.capture_id).toMatch(/^[0-9A-F]{17}$/);
      expect(paypal.count('token')).toBe(1);
    });

    it('50 concurrent executes interleaved with 5 duplicate PAYMENT.CAPTURE.COMPLETED webhooks grant exactly once', async () => {
      const { user, orderId, execute } = await approvedGrowthOrder();
      // PayPal captures at once but answers late: the webhooks arrive while the executes wait.
      paypal.failNext('capture', 'slow-after', { delayMs: 250 });
      const first = Array.from({ length: 25 }, () => execute());
      await waitFor(() => paypal.orders.get(orderId)!.status, { until: (status) => status === 'COMPLETED', intervalMs: 5, what: 'PayPal to capture the order' });
      const delivery = paypal.captureCompletedEvent(orderId);
      const rest = [...Array.from({ length: 5 }, () => postWebhook(delivery)), ...Array.from({ length: 25 }, () => execute())];
      const answers = await Promise.all([...first, ...rest]);
      const executes = answers.filter((a) => 'success' in (a.body ?? {}));
      const webhooks = answers.filter((a) => 'received' in (a.body ?? {}));
      expect(executes).toHaveLength(50);
      expect(executes.every((a) => a.status === 200 && a.body.success === true && a.body.credits_added === 330)).toBe(true);
      expect(webhooks).toHaveLength(5);
      expect(webhooks.every((a) => a.status === 200 && ['completed', 'duplicate'].includes(a.body.outcome))).toBe(true);
      expect(await b.balance(user.id)).toBe(340);
      expect(await purchaseEntries(user.id)).toHaveLength(1);
      expect(await sales(user.id)).toHaveLength(1);
      // Real PayPal money: the sale carries no test mark.
      expect((await sales(user.id))[0].envelope.data.test).toBeUndefined();
    });

    it('without the in-process single flight (as between replicas), 50 concurrent capture records and 5 webhooks grant once', async () => {
      const { user, orderId, execute } = await approvedGrowthOrder();
      paypal.failNext('capture', 'status500-after');
      expect((await execute()).status).toBe(502);
      const purchase = await b.db('purchases').where({ user_id: user.id }).first();
      const capture = paypal.orders.get(orderId)!.capture!;
      const view = { orderId, captureId: capture.id, status: 'COMPLETED', amountCents: 4900, currency: 'USD', customId: purchase.id };
      const delivery = paypal.captureCompletedEvent(orderId);
      const records = await Promise.all([
        ...Array.from({ length: 50 }, () => recordCapture(b.db, purchase.id, view)),
        ...Array.from({ length: 5 }, () => postWebhook(delivery)),
      ]);
      // Exactly one writer completes the purchase: one of these, or one of the webhooks.
      const completedHere = records.filter((r) => 'newlyCompleted' in r && r.newlyCompleted).length;
      const webhookOutcomes = records.filter((r) => 'body' in r).map((r) => (r as { body: { outcome: string } }).body.outcome);
      expect(completedHere).toBeLessThanOrEqual(1);
      expect(records.filter((r) => 'outcome' in r).every((r) => (r as { outcome: string }).outcome === 'completed')).toBe(true);
      expect(webhookOutcomes.every((o) => o === 'completed' || o === 'duplicate')).toBe(true);
      expect(await b.balance(user.id)).toBe(340);
      expect(await purchaseEntries(user.id)).toHaveLength(1);
      expect(await sales(user.id)).toHaveLength(1);
    });

    it('PayPal answering 500 on capture: the user sees the error, nothing is granted, a retry grants once', async () => {
      const { user, execute } = await approvedGrowthOrder();
      paypal.failNext('capture', 'status500-before');
      expect(await execute()).toMatchObject({ status: 502, body: { detail: UNAVAILABLE } });
      expect(await b.balance(user.id)).toBe(10);
      expect((await execute()).body).toMatchObject({ success: true, credits_added: 330 });
      expect((await execute()).body).toMatchObject({ success: true, credits_added: 330 });
      expect(await b.balance(user.id)).toBe(340);
      expect(await purchaseEntries(user.id)).toHaveLength(1);
    });

    it('PayPal capturing but the answer timing out: nothing granted until the webhook, which grants once; a later execute agrees', async () => {
      const { user, orderId, execute } = await approvedGrowthOrder();
      paypal.failNext('capture', 'timeout-after', { delayMs: 1500 });
      expect(await execute()).toMatchObject({ status: 502, body: { detail: UNAVAILABLE } });
      expect(paypal.orders.get(orderId)!.status).toBe('COMPLETED');
      expect(await b.balance(user.id)).toBe(10);
      const delivery = paypal.captureCompletedEvent(orderId);
      expect((await postWebhook(delivery)).body).toEqual({ received: true, outcome: 'completed' });
      expect((await postWebhook(delivery)).body).toEqual({ received: true, outcome: 'duplicate' });
      expect(await b.balance(user.id)).toBe(340);
      expect((await execute()).body).toMatchObject({ success: true, credits_added: 330 });
      expect(await b.balance(user.id)).toBe(340);
      expect(await purchaseEntries(user.id)).toHaveLength(1);
    });

    it('a retry after a lost answer is recognised: PayPal-Request-Id replay, or ORDER_ALREADY_CAPTURED once PayPal forgot the id', async () => {
      const replayed = await approvedGrowthOrder();
      paypal.failNext('capture', 'status500-after');
      expect((await replayed.execute()).status).toBe(502);
      expect((await replayed.execute()).body).toMatchObject({ success: true, credits_added: 330 });
      expect(await b.balance(replayed.user.id)).toBe(340);

      const forgotten = await approvedGrowthOrder();
      paypal.failNext('capture', 'status500-after');
      expect((await forgotten.execute()).status).toBe(502);
      paypal.forgetRequestIds();
      expect((await forgotten.execute()).body).toMatchObject({ success: true, credits_added: 330 });
      expect(await b.balance(forgotten.user.id)).toBe(340);
      expect(await purchaseEntries(forgotten.user.id)).toHaveLength(1);
    });

    it('fetches a new token when PayPal revokes the cached one', async () => {
      const tokensBefore = paypal.count('token');
      paypal.revokeTokens();
      const { user, execute } = await approvedGrowthOrder();
      expect((await execute()).body).toMatchObject({ success: true });
      expect(await b.balance(user.id)).toBe(340);
      expect(paypal.count('token')).toBe(tokensBefore + 1);
    });

    it('a PENDING capture waits for the webhook; then the credits come once', async () => {
      const { user, orderId, execute } = await approvedGrowthOrder();
      paypal.setCaptureStatus('PENDING');
      try {
        expect(await execute()).toEqual({ status: 202, body: { success: false, credits_added: 0, status: 'pending', message: 'PayPal is still reviewing this payment. Your credits will be added as soon as it clears.' } });
      } finally {
        paypal.setCaptureStatus('COMPLETED');
      }
      expect(await b.balance(user.id)).toBe(10);
      expect((await b.db('purchases').where({ user_id: user.id }).first()).status).toBe('pending');
      paypal.completePendingCapture(orderId);
      expect((await postWebhook(paypal.captureCompletedEvent(orderId))).body.outcome).toBe('completed');
      expect(await b.balance(user.id)).toBe(340);
      expect((await execute()).body).toMatchObject({ success: true, credits_added: 330 });
      expect(await b.balance(user.id)).toBe(340);
    });

    it('after a crash between capture and grant, a retried execute finds the capture and grants, capturing nothing more', async () => {
      const { user, orderId, execute } = await approvedGrowthOrder();
      paypal.captureUnheard(orderId);
      paypal.forgetRequestIds();
      expect(await execute()).toMatchObject({ status: 200, body: { success: true, credits_added: 330 } });
      expect(paypal.capturesOf(orderId)).toBe(0);
      expect(await b.balance(user.id)).toBe(340);
    });

    it('a capture for another amount is refunded in full at once, never granted, and the buyer is told', async () => {
      const { user, orderId, execute } = await approvedGrowthOrder();
      paypal.setCapturedAmount('1.00');
      try {
        expect(await execute()).toMatchObject({ status: 422, body: { code: 'amount_mismatch', detail: 'The amount PayPal captured does not match this order, so it was refunded to you in full and no credits were added. Please start a new purchase.' } });
        expect(paypal.refunded(orderId)).toBe(true);
        expect((await execute()).status).toBe(422);
        expect((await postWebhook(paypal.captureCompletedEvent(orderId, { value: '1.00' }))).body.outcome).toBe('amount_mismatch_refunded');
      } finally {
        paypal.setCapturedAmount(undefined);
      }
      expect(paypal.count('refund')).toBeGreaterThanOrEqual(1);
      expect(await b.balance(user.id)).toBe(10);
      const purchase = await b.db('purchases').where({ user_id: user.id }).first();
      expect(purchase).toMatchObject({ status: 'failed', refund_reason: 'captured amount did not match the order' });
      expect(purchase.failure).toMatch(/^amount mismatch/);
      expect(purchase.refunded_at).not.toBeNull();
    });

    it('a verified webhook about another capture changes nothing: the buyer still pays once and gets the credits', async () => {
      const { user, orderId, execute } = await approvedGrowthOrder();
      expect((await postWebhook(paypal.foreignCaptureEvent(orderId, '1.00'))).body).toEqual({ received: true, outcome: 'no_capture_on_order' });
      expect((await b.db('purchases').where({ user_id: user.id }).first()).status).toBe('created');
      expect(await execute()).toMatchObject({ status: 200, body: { success: true, credits_added: 330 } });
      expect(paypal.refunded(orderId)).toBe(false);
      expect(await b.balance(user.id)).toBe(340);
    });

    it('never captures an order that is not for our price', async () => {
      const { user, orderId, execute } = await approvedGrowthOrder();
      paypal.orders.get(orderId)!.request.purchase_units[0].amount.value = '1.00';
      expect(await execute()).toMatchObject({ status: 422, body: { code: 'order_amount_mismatch' } });
      expect(paypal.capturesOf(orderId)).toBe(0);
      expect(paypal.orders.get(orderId)!.status).toBe('APPROVED');
      expect(await b.balance(user.id)).toBe(10);
    });

    it('answers a declined card with 402 and grants nothing', async () => {
      const { user, execute } = await approvedGrowthOrder();
      paypal.setCaptureStatus('DECLINED');
      try {
        expect(await execute()).toMatchObject({ status: 402, body: { detail: 'PayPal declined the payment. Please try another payment method.' } });
      } finally {
        paypal.setCaptureStatus('COMPLETED');
      }
      expect(await b.balance(user.id)).toBe(10);
    });

    it('refuses webhooks PayPal does not vouch for, and malformed ones', async () => {
      const { user, orderId, execute } = await approvedGrowthOrder();
      paypal.failNext('capture', 'status500-after');
      await execute();
      const delivery = paypal.captureCompletedEvent(orderId);
      expect(await postWebhook(paypal.forged(delivery))).toMatchObject({ status: 400, body: { detail: 'Webhook signature could not be verified' } });
      const tampered = { ...delivery, rawBody: delivery.rawBody.replace('"49.00"', '"49.000"') };
      expect((await postWebhook(tampered)).status).toBe(400);
      expect(await b.call('POST', '/api/payments/webhook', '{"id":', { 'content-type': 'application/json' })).toMatchObject({ status: 400, body: { detail: 'Webhook body is not valid JSON' } });
      paypal.failNext('verify', 'status500-before');
      expect(await postWebhook(delivery)).toMatchObject({ status: 502, body: { detail: 'PayPal could not verify this webhook right now' } });
      expect(await b.balance(user.id)).toBe(10);
      expect((await postWebhook(delivery)).body.outcome).toBe('completed');
      expect(await b.balance(user.id)).toBe(340);
    });

    it('refunds within 7 days through PayPal and takes the credits back, once', async () => {
      const { user, execute } = await approvedGrowthOrder();
      await execute();
      const purchase = await b.db('purchases').where({ user_id: user.id }).first();
      const refund = () => b.call('POST', `/internal/purchases/${purchase.id}/refund`, { actor_id: 'admin-1', reason: 'asked within the week' }, b.internal);
      const first = await refund();
      expect(first.body).toMatchObject({ purchase_id: purchase.id, status: 'refunded', amount: 49, credits_reversed: 330, credits_shortfall: 0 });
      expect((await refund()).body).toEqual(first.body);
      expect(paypal.calls.filter((c) => c.op === 'refund' && c.requestId === `refund-${purchase.id}`)).toHaveLength(1);
      expect(await b.balance(user.id)).toBe(10);
      const announced = await b.db('kit_outbox').whereRaw("envelope->>'type' = 'purchase.refunded'").andWhereRaw("envelope->'data'->>'purchase_id' = ?", [purchase.id]);
      expect(announced.map((r) => r.envelope.data)).toEqual([expect.objectContaining({ user_id: user.id, amount: 49, credits_reversed: 330 })]);
      const order = paypal.orders.get(purchase.provider_order_id)!;
      expect(paypal.refunded(order.id)).toBe(true);
      expect((await postWebhook(paypal.refundEvent(purchase.provider_order_id))).body.outcome).toBe('already_refunded');
    });

    it('a refund of spent credits takes the balance to zero, never below, and records the shortfall', async () => {
      const { user, execute } = await approvedGrowthOrder();
      await execute();
      const spend = await b.call('POST', '/internal/reservations', { user_id: user.id, amount: 335, ref: 'search:s1', idempotency_key: `spend-${user.id}` }, b.internal);
      expect(spend.body.balance).toBe(5);
      const purchase = await b.db('purchases').where({ user_id: user.id }).first();
      const refund = await b.call('POST', `/internal/purchases/${purchase.id}/refund`, { actor_id: 'admin-1' }, b.internal);
      expect(refund.body).toMatchObject({ credits_reversed: 5, credits_shortfall: 325 });
      expect(await b.balance(user.id)).toBe(0);
    });

    it('refuses refunds after 7 days and of purchases that did not complete', async () => {
      const { user, execute } = await approvedGrowthOrder();
      await execute();
      const purchase = await b.db('purchases').where({ user_id: user.id }).first();
      await b.db('purchases').where({ id: purchase.id }).update({ completed_at: b.db.raw("now() - interval '8 days'") });
      const late = await b.call('POST', `/internal/purchases/${purchase.id}/refund`, { actor_id: 'admin-1' }, b.internal);
      expect(late.status).toBe(400);
      expect(late.body.detail).toMatch(/^Refunds are possible within 7 days of purchase; this purchase was completed on \d{4}-\d{2}-\d{2}$/);
      const open = await b.call('POST', '/api/payments/create', { plan_id: 'starter' }, user.headers);
      const unpaid = await b.db('purchases').where({ provider_order_id: open.body.payment_id }).first();
      expect(await b.call('POST', `/internal/purchases/${unpaid.id}/refund`, { actor_id: 'admin-1' }, b.internal))
        .toMatchObject({ status: 409, body: { detail: 'Only completed purchases can be refunded; this one is created' } });
      expect(await b.balance(user.id)).toBe(340);
    });

    it('takes the credits back when PayPal reports a refund or reversal, once; ignores partial refunds', async () => {
      const refunded = await approvedGrowthOrder();
      await refunded.execute();
      const delivery = paypal.refundEvent(refunded.orderId);
      expect((await postWebhook(delivery)).body.outcome).toBe('refunded');
      expect((await postWebhook(delivery)).body.outcome).toBe('duplicate');
      expect((await postWebhook(paypal.refundEvent(refunded.orderId, 'PAYMENT.CAPTURE.REVERSED'))).body.outcome).toBe('already_refunded');
      expect(await b.balance(refunded.user.id)).toBe(10);

      const partial = await approvedGrowthOrder();
      await partial.execute();
      expect((await postWebhook(paypal.refundEvent(partial.orderId, 'PAYMENT.CAPTURE.REFUNDED', '10.00'))).body.outcome).toBe('partial_refund_ignored');
      expect(await b.balance(partial.user.id)).toBe(340);

      const reversed = await approvedGrowthOrder();
      await reversed.execute();
      expect((await postWebhook(paypal.refundEvent(reversed.orderId, 'PAYMENT.CAPTURE.REVERSED'))).body.outcome).toBe('refunded');
      expect(await b.balance(reversed.user.id)).toBe(10);
    });

    it('lets only admins read and switch the payment mode; live needs live credentials', async () => {
      const admin = b.auth.user('admin');
      const user = b.auth.user();
      expect((await b.call('GET', '/api/admin/paypal-config')).status).toBe(401);
      expect((await b.call('GET', '/api/admin/paypal-config', undefined, user.headers)).status).toBe(403);
      expect((await b.call('POST', '/api/admin/paypal-config', { sandbox_mode: false }, user.headers)).status).toBe(403);
      expect((await b.call('GET', '/api/admin/paypal-config', undefined, admin.headers)).body)
        .toEqual({ sandbox_mode: true, client_id: paypal.env.PAYPAL_CLIENT_ID, mode: 'sandbox', sandbox_configured: true, live_configured: false });
      expect(await b.call('POST', '/api/admin/paypal-config', { sandbox_mode: false }, admin.headers))
        .toMatchObject({ status: 400, body: { detail: 'PayPal live mode needs PAYPAL_LIVE_CLIENT_ID and PAYPAL_LIVE_CLIENT_SECRET to be configured on the server' } });
      expect(await b.call('POST', '/api/admin/paypal-config', { sandbox_mode: 'yes' }, admin.headers)).toMatchObject({ status: 400, body: { detail: 'sandbox_mode must be true or false' } });
      expect((await b.call('POST', '/api/admin/paypal-config', { sandbox_mode: true }, admin.headers)).body).toEqual({ message: 'PayPal switched to sandbox mode' });
    });
  });
}

describe('PayPal sandbox and live side by side (PGlite)', () => {
  let sandbox: PaypalStandIn;
  let live: PaypalStandIn;
  let b: BillingUnderTest;

  beforeAll(async () => {
    [sandbox, live] = await Promise.all([startPaypalStandIn(), startPaypalStandIn()]);
    b = await startBillingForTest('pglite', {
      ...sandbox.env,
      PAYPAL_LIVE_API_BASE: live.url,
      PAYPAL_LIVE_CLIENT_ID: live.env.PAYPAL_CLIENT_ID,
      PAYPAL_LIVE_CLIENT_SECRET: live.env.PAYPAL_CLIENT_SECRET,
      PAYPAL_LIVE_WEBHOOK_ID: live.env.PAYPAL_WEBHOOK_ID,
      PAYPAL_RETRIES: '1',
      PAYPAL_TIMEOUT_MS: '800',
    });
  });
  afterAll(async () => {
    await b?.stop();
    await Promise.all([sandbox?.close(), live?.close()]);
  });

  it('sends new orders to the chosen mode and captures each order where it was created', async () => {
    const admin = b.auth.user('admin');
    const user = await b.newUser();
    const inSandbox = await b.call('POST', '/api/payments/create', { plan_id: 'starter' }, user.headers);
    expect(sandbox.orders.has(inSandbox.body.payment_id)).toBe(true);

    expect((await b.call('POST', '/api/admin/paypal-config', { sandbox_mode: false }, admin.headers)).body).toEqual({ message: 'PayPal switched to live mode' });
    expect((await b.call('GET', '/api/payments/config')).body).toMatchObject({ client_id: live.env.PAYPAL_CLIENT_ID, mode: 'live' });
    const inLive = await b.call('POST', '/api/payments/create', { plan_id: 'starter' }, user.headers);
    expect(live.orders.has(inLive.body.payment_id)).toBe(true);

    sandbox.approve(inSandbox.body.payment_id);
    live.approve(inLive.body.payment_id);
    expect((await b.call('POST', '/api/payments/execute', { payment_id: inSandbox.body.payment_id }, user.headers)).body.success).toBe(true);
    expect((await b.call('POST', '/api/payments/execute', { payment_id: inLive.body.payment_id }, user.headers)).body.success).toBe(true);
    expect(await b.balance(user.id)).toBe(210);
    const modes = (await b.db('purchases').where({ user_id: user.id }).orderBy('created_at')).map((p) => p.provider_mode);
    expect(modes).toEqual(['sandbox', 'live']);
  });

  it('retries a PayPal 500 itself (the request id makes the repeat safe), invisible to the user', async () => {
    const user = await b.newUser();
    const created = await b.call('POST', '/api/payments/create', { plan_id: 'growth' }, user.headers);
    const stand = sandbox.orders.has(created.body.payment_id) ? sandbox : live;
    stand.approve(created.body.payment_id);
    stand.failNext('capture', 'status500-before');
    expect((await b.call('POST', '/api/payments/execute', { payment_id: created.body.payment_id }, user.headers)).body).toMatchObject({ success: true, credits_added: 330 });
    const captures = stand.calls.filter((c) => c.op === 'capture' && c.path.includes(created.body.payment_id));
    expect(captures.map((c) => c.status)).toEqual([500, 201]);
    expect(new Set(captures.map((c) => c.requestId)).size).toBe(1);
    expect(await b.balance(user.id)).toBe(340);
  });

  it('verifies webhooks from either mode', async () => {
    const user = await b.newUser();
    const created = await b.call('POST', '/api/payments/create', { plan_id: 'starter' }, user.headers);
    const stand = sandbox.orders.has(created.body.payment_id) ? sandbox : live;
    stand.approve(created.body.payment_id);
    stand.failNext('capture', 'timeout-after', { delayMs: 2500, times: 2 });
    expect((await b.call('POST', '/api/payments/execute', { payment_id: created.body.payment_id }, user.headers)).status).toBe(502);
    const delivery = stand.captureCompletedEvent(created.body.payment_id);
    expect((await b.call('POST', '/api/payments/webhook', delivery.rawBody, delivery.headers)).body.outcome).toBe('completed');
    expect(await b.balance(user.id)).toBe(110);
  });
});
