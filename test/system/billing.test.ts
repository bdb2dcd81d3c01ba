import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalStack, type LocalStackProcess } from '../support/localStack.ts';
import { apiClient, bearer } from '../support/api.ts';
import { startPaypalStandIn, type PaypalStandIn } from '../../services/billing/test/support/paypalStandIn.ts';
import { registerAdmin } from '../support/verifiedAdmin.ts';

type Api = ReturnType<typeof apiClient>;

let emails = 0;
const register = (api: Api, extra: object = {}) =>
  api('POST', '/api/auth/register', { name: 'Billing Tester', email: `billing-${Date.now()}-${emails++}@example.com`, password: 'secret123', ...extra });

/** Buys a plan through the built-in test checkout exactly as the credits page does. */
async function buyWithTestCheckout(api: Api, token: string, planId: string) {
  const created = await api('POST', '/api/payments/create', { plan_id: planId, return_url: 'http://localhost/credits', cancel_url: 'http://localhost/credits' }, bearer(token));
  expect(created.status).toBe(200);
  const approved = await api('POST', `/api/payments/test-checkout/${created.body.payment_id}/approve`);
  expect(approved.status).toBe(200);
  return api('POST', '/api/payments/execute', { payment_id: created.body.payment_id, payer_id: approved.body.payer_id }, bearer(token));
}

/** Pays the CBC500 promo without an account, as the promo page does; returns what the buyer's registration sends. */
async function payPromo(api: Api): Promise<{ promo_code: string; order_id: string; promo_claim_token: string }> {
  const created = await api('POST', '/api/payments/create-order', { plan: 'cbc500_promo', amount: 19, description: 'CBC Special - 500 leads' });
  expect(created.status).toBe(200);
  await api('POST', `/api/payments/test-checkout/${created.body.order_id}/approve`);
  const completed = await api('POST', '/api/payments/complete-payment', { order_id: created.body.order_id, plan: 'cbc500_promo', promo_code: 'CBC500' });
  expect(completed.body).toMatchObject({ success: true });
  return { promo_code: 'CBC500', order_id: created.body.order_id, promo_claim_token: created.body.claim_token };
}

describe('billing through the gateway, with the built-in test checkout (npm start without PayPal credentials)', () => {
  let stack: LocalStackProcess;
  let api: Api;

  beforeAll(async () => {
    stack = await startLocalStack({ env: { ADMIN_EMAILS: 'billing-admin@example.com', PAYPAL_CLIENT_ID: '', PAYPAL_CLIENT_SECRET: '' } });
    api = apiClient(stack.url);
  }, 240_000);
  afterAll(async () => { await stack?.stop(); });

  it('starts a new account with 10 credits, in the register answer and in /me', async () => {
    const reg = await register(api);
    expect(reg.status).toBe(201);
    expect(reg.body.user.credits).toBe(10);
    expect((await api('GET', '/api/auth/me', undefined, bearer(reg.body.access_token))).body.credits).toBe(10);
  });

  it('buys the Growth plan: 340 credits, GROWTH in the history', async () => {
    const reg = await register(api);
    const token = reg.body.access_token;
    expect((await api('GET', '/api/payments/config')).body).toEqual({ client_id: '', mode: 'test', currency: 'USD', intent: 'capture' });
    expect((await buyWithTestCheckout(api, token, 'growth')).body).toEqual({ success: true, credits_added: 330, status: 'completed' });
    expect((await api('GET', '/api/auth/me', undefined, bearer(token))).body.credits).toBe(340);
    const history = await api('GET', '/api/payments/history', undefined, bearer(token));
    expect(history.body.purchases).toEqual([expect.objectContaining({ plan_id: 'growth', amount: 49, credits: 330 })]);
  });

  it('answers bad payment input with a 4xx and a detail, never a 5xx', async () => {
    const token = (await register(api)).body.access_token;
    const cases: [string, string, unknown, Record<string, string>, number, string][] = [
      ['POST', '/api/payments/create', { plan_id: 'growth', price: 0.01 }, bearer(token), 400, 'Unknown field: price. Prices are set by the server from the plan table; send only plan_id.'],
      ['POST', '/api/payments/create', { plan_id: 'platinum' }, bearer(token), 400, 'Unknown plan: choose starter, growth or agency'],
      ['POST', '/api/payments/create', '{"plan_id":', bearer(token), 400, 'Request body is not valid JSON'],
      ['POST', '/api/payments/create', { plan_id: 'growth' }, {}, 401, 'Authentication required'],
      ['POST', '/api/payments/execute', {}, bearer(token), 400, 'payment_id is required'],
      ['POST', '/api/payments/execute', { payment_id: 'NOT-OURS' }, bearer(token), 404, 'Payment not found'],
      ['POST', '/api/payments/create-order', { plan: 'cbc500_promo', amount: 5 }, {}, 400, 'The CBC500 offer costs $19; prices are set by the server'],
      ['POST', '/api/payments/complete-payment', { order_id: 'NOPE', plan: 'cbc500_promo', promo_code: 'CBC500' }, {}, 404, 'Promo order not found'],
      ['POST', '/api/payments/webhook', { id: 'WH-1', event_type: 'PAYMENT.CAPTURE.COMPLETED' }, {}, 400, 'PayPal webhooks are not configured on this server (PAYPAL_WEBHOOK_ID)'],
      ['GET', '/api/admin/paypal-config', undefined, {}, 401, 'Authentication required'],
      ['GET', '/api/admin/paypal-config', undefined, bearer(token), 403, 'Admin privileges required'],
      ['GET', '/internal/balances/x', undefined, {}, 404, 'Not found'],
    ];
    for (const [method, path, body, headers, status, detail] of cases) {
      const res = await api(method, path, body, headers);
      expect({ path, status: res.status, detail: res.body.detail }).toEqual({ path, status, detail });
    }
  });

  it('lets an admin read and switch the payment mode', async () => {
    const { token } = await registerAdmin(api, stack.dataDir, { name: 'Billing Admin', email: 'billing-admin@example.com', password: 'secret123' });
    expect((await api('GET', '/api/admin/paypal-config', undefined, bearer(token))).body).toMatchObject({ sandbox_mode: true, client_id: '', mode: 'test' });
    const switched = await api('POST', '/api/admin/paypal-config', { sandbox_mode: false }, bearer(token));
    expect(switched.body.message).toBe('Saved: PayPal live mode. No PayPal credentials are configured, so the built-in test checkout stays in use.');
    expect((await api('GET', '/api/admin/paypal-config', undefined, bearer(token))).body.sandbox_mode).toBe(false);
    await api('POST', '/api/admin/paypal-config', { sandbox_mode: true }, bearer(token));
  });

  it('promo: pay first, register with the order, start with 510 credits', async () => {
    const promo = await payPromo(api);
    const orderId = promo.order_id;
    const reg = await register(api, promo);
    expect(reg.status).toBe(201);
    expect(reg.body.user.credits).toBe(510);
    const claim = await api('GET', `/api/payments/promo-orders/${orderId}`, undefined, bearer(reg.body.access_token));
    expect(claim.body).toMatchObject({ outcome: 'claimed', credits: 500 });
    const history = await api('GET', '/api/payments/history', undefined, bearer(reg.body.access_token));
    expect(history.body.purchases).toEqual([expect.objectContaining({ plan_id: 'cbc500_promo', amount: 19, credits: 500 })]);
  });

  it('promo: two registrations with one order at once — one gets 510, the other a normal account and a clear answer', async () => {
    const promo = await payPromo(api);
    const orderId = promo.order_id;
    const [a, b] = await Promise.all([register(api, promo), register(api, promo)]);
    expect([a.status, b.status]).toEqual([201, 201]);
    const me = async (token: string) => (await api('GET', '/api/auth/me', undefined, bearer(token))).body.credits;
    const credits = [await me(a.body.access_token), await me(b.body.access_token)];
    expect([...credits].sort((x, y) => x - y)).toEqual([10, 510]);
    const loser = credits[0] === 10 ? a : b;
    const claim = await api('GET', `/api/payments/promo-orders/${orderId}`, undefined, bearer(loser.body.access_token));
    expect(claim.body.outcome).toBe('already_claimed');
    expect(claim.body.message).toMatch(/^This promo order has already been used by another account\./);
  });
});

describe('billing through the gateway with PayPal configured (a local PayPal stand-in)', () => {
  let paypal: PaypalStandIn;
  let stack: LocalStackProcess;
  let api: Api;

  beforeAll(async () => {
    paypal = await startPaypalStandIn();
    stack = await startLocalStack({ env: { ...paypal.env, PAYPAL_TIMEOUT_MS: '2000' } });
    api = apiClient(stack.url);
  }, 240_000);
  afterAll(async () => {
    await stack?.stop();
    await paypal?.close();
  });

  it('captures through PayPal, and a verified webhook after a lost answer grants once', async () => {
    const reg = await register(api);
    const token = reg.body.access_token;
    expect((await api('GET', '/api/payments/config')).body).toEqual({ client_id: paypal.env.PAYPAL_CLIENT_ID, mode: 'sandbox', currency: 'USD', intent: 'capture' });
    expect((await api('POST', '/api/payments/test-checkout/X/approve')).status).toBe(404);
    const created = await api('POST', '/api/payments/create', { plan_id: 'starter' }, bearer(token));
    paypal.approve(created.body.payment_id);
    paypal.failNext('capture', 'status500-after', { times: 2 });
    const failed = await api('POST', '/api/payments/execute', { payment_id: created.body.payment_id }, bearer(token));
    expect(failed).toMatchObject({ status: 502, body: { detail: 'PayPal did not answer while confirming the payment. Please try again in a moment.' } });
    const delivery = paypal.captureCompletedEvent(created.body.payment_id);
    const webhook = await api('POST', '/api/payments/webhook', delivery.rawBody, delivery.headers);
    expect(webhook.body).toEqual({ received: true, outcome: 'completed' });
    expect((await api('POST', '/api/payments/webhook', paypal.forged(delivery).rawBody, paypal.forged(delivery).headers)).status).toBe(400);
    expect((await api('POST', '/api/payments/execute', { payment_id: created.body.payment_id }, bearer(token))).body).toMatchObject({ success: true, credits_added: 100 });
    expect((await api('GET', '/api/auth/me', undefined, bearer(token))).body.credits).toBe(110);
  });
});
