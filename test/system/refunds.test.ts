import crypto from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@leadforge/testing';
import { freePort } from '../../stack/src/freePort.ts';
import { startLocalStack, type LocalStackProcess } from '../support/localStack.ts';
import { apiClient, bearer, loopbackAddresses } from '../support/api.ts';
import { registerAdmin } from '../support/verifiedAdmin.ts';
import { waitForMail } from '@leadforge/testing';
import { startPaypalStandIn, type PaypalStandIn, type StandInPayer } from '../../services/billing/test/support/paypalStandIn.ts';

const ADMIN_EMAIL = 'refund-admin@example.com';
const INTERNAL_TOKEN = crypto.randomBytes(24).toString('hex');

interface Buyer { id: string; email: string; auth: Record<string, string> }

/**
 * The 7-day refund through the gateway, with PayPal configured (the local PayPal stand-in): a buyer
 * asks on the Credits page's API, an unspent pack is refunded at once, any other waits for an
 * administrator in the Refunds queue; PayPal's webhook that follows changes nothing more.
 */
describe('the 7-day refund through the gateway, with PayPal (stand-in)', () => {
  let paypal: PaypalStandIn;
  let stack: LocalStackProcess;
  let api: ReturnType<typeof apiClient>;
  let billingPort: number;
  let admin: Record<string, string>;
  let mailDir: string;
  let people = 0;

  const internal = async (method: string, route: string, body?: unknown) => {
    const res = await fetch(`http://127.0.0.1:${billingPort}${route}`, {
      method,
      headers: { 'x-internal-token': INTERNAL_TOKEN, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: await res.json() };
  };
  /** The balance as billing's ledger has it (exact, not a projection). */
  const balance = async (who: Buyer) => (await internal('GET', `/internal/balances/${who.id}`)).body.balance as number;
  /** Spends credits as a search does: reserve, then settle what was delivered. */
  const spend = async (who: Buyer, amount: number) => {
    const held = await internal('POST', '/internal/reservations', { user_id: who.id, amount, ref: `search:${crypto.randomUUID()}`, idempotency_key: crypto.randomUUID() });
    expect(held.status).toBe(201);
    expect((await internal('POST', `/internal/reservations/${held.body.reservation_id}/settle`, { charge: amount })).status).toBe(200);
  };
  // Each person registers from their own address: one address registering twice in a day is taken for one person.
  const nextAddress = loopbackAddresses();
  const register = async (name: string, referralToken?: string): Promise<Buyer> => {
    const email = `refund.${++people}.${Date.now()}@example.com`;
    const res = await apiClient(stack.url, { from: nextAddress() })('POST', '/api/auth/register', { name, email, password: 'secret123', ...(referralToken ? { referral_code: referralToken } : {}) });
    expect(res.status).toBe(201);
    const buyer = { id: res.body.user.id as string, email, auth: bearer(res.body.access_token) };
    await waitFor(() => balance(buyer), { until: (b) => b === 10, what: 'the signup grant' });
    return buyer;
  };
  /** Buys a pack through PayPal as the Credits page does; answers the purchase and its PayPal order. */
  const buy = async (who: Buyer, planId: 'starter' | 'growth', payer?: StandInPayer) => {
    const created = await api('POST', '/api/payments/create', { plan_id: planId }, who.auth);
    expect(created.status).toBe(200);
    paypal.approve(created.body.payment_id, payer);
    expect((await api('POST', '/api/payments/execute', { payment_id: created.body.payment_id }, who.auth)).body).toMatchObject({ success: true });
    const history = (await api('GET', '/api/payments/history', undefined, who.auth)).body.purchases;
    return { purchaseId: history[0].id as string, orderId: created.body.payment_id as string };
  };
  const ask = (who: Buyer, purchaseId: string, reason = 'It did not fit what I needed') =>
    api('POST', `/api/payments/purchases/${purchaseId}/refund-request`, { reason }, who.auth);
  const historyOf = async (who: Buyer) => (await api('GET', '/api/payments/history', undefined, who.auth)).body.purchases as { id: string; status: string; refundable_until: string | null; refund_request: Record<string, unknown> | null }[];
  const webhook = (delivery: { rawBody: string; headers: Record<string, string> }) => api('POST', '/api/payments/webhook', delivery.rawBody, delivery.headers);

  beforeAll(async () => {
    paypal = await startPaypalStandIn();
    billingPort = await freePort();
    stack = await startLocalStack({
      env: { ...paypal.env, PAYPAL_TIMEOUT_MS: '2000', ADMIN_EMAILS: ADMIN_EMAIL, INTERNAL_TOKEN, BILLING_PORT: String(billingPort), AUTH_REGISTER_PER_IP_PER_HOUR: '1000' },
    });
    api = apiClient(stack.url);
    mailDir = path.join(stack.dataDir, 'mail');
    admin = bearer((await registerAdmin(api, stack.dataDir, { name: 'Refund Admin', email: ADMIN_EMAIL, password: 'secret123' })).token);
  }, 240_000);
  afterAll(async () => {
    await stack?.stop();
    await paypal?.close();
  });

  it('refunds an unspent pack at once, once for a double click: credits, commission, receipt; the webhook after changes nothing', async () => {
    const ada = await register('Ada Referrer');
    const code = (await api('GET', '/api/affiliate/stats', undefined, ada.auth)).body.referral_code as string;
    const visit = await api('POST', '/api/affiliate/referral-visits', { code });
    const bob = await register('Bob Buyer', visit.body.referral_token);
    const { purchaseId, orderId } = await buy(bob, 'growth');
    expect(await balance(bob)).toBe(340);
    await waitFor(() => api('GET', '/api/affiliate/stats', undefined, ada.auth), { until: (s) => s.body.total_commissions === 4.9, what: 'Ada\'s commission' });
    expect((await historyOf(bob))[0]).toMatchObject({ id: purchaseId, refundable_until: expect.any(String), refund_request: null });

    const [first, second] = await Promise.all([ask(bob, purchaseId), ask(bob, purchaseId)]);
    const answers = [first, second].sort((a, b) => a.status - b.status);
    expect(answers.map((a) => a.status)).toEqual([200, 409]);
    expect(answers[0].body).toMatchObject({ request: { status: 'refunded', instant: true, amount_refunded: 49, credits_reversed: 330 }, message: 'Refunded $49.00; 330 credits left your balance.' });
    expect(answers[1].body).toEqual({ detail: 'A refund was already requested for this purchase; its status is shown under Purchase history', code: 'refund_already_requested' });
    expect(await balance(bob)).toBe(10);
    // One refund in PayPal, of the whole capture (no amount sent), under the purchase's request id.
    expect(paypal.refundsOf(orderId)).toEqual([expect.objectContaining({ status: 'COMPLETED', amount: { currency_code: 'USD', value: '49.00' } })]);
    expect(paypal.calls.filter((c) => c.op === 'refund' && c.requestId === `refund-${purchaseId}`)).toHaveLength(1);

    const stats = await waitFor(() => api('GET', '/api/affiliate/stats', undefined, ada.auth), { until: (s) => s.body.total_commissions === 0, what: 'the commission taken back' });
    expect(stats.body.total_commissions).toBe(0);
    const mail = await waitForMail(mailDir, bob.email, /^Your Leadforge refund: \$49\.00$/);
    expect(mail.text).toContain('330');

    expect((await webhook(paypal.refundEvent(orderId))).body).toEqual({ received: true, outcome: 'already_refunded' });
    expect(await balance(bob)).toBe(10);
    expect((await historyOf(bob))[0]).toMatchObject({ status: 'refunded', refundable_until: null, refund_request: { status: 'refunded' } });
    expect(await ask(bob, purchaseId)).toMatchObject({ status: 409, body: { code: 'refund_already_requested' } });
  });

  it('a referred buyer paying with the referrer\'s own PayPal account earns the referrer nothing', async () => {
    const wallet = { accountId: 'WALLETOFCLEO1', email: 'cleo.wallet@example.com' };
    const cleo = await register('Cleo Referrer');
    await buy(cleo, 'starter', wallet);
    const code = (await api('GET', '/api/affiliate/stats', undefined, cleo.auth)).body.referral_code as string;
    const alias = await register('Cleo Alias', (await api('POST', '/api/affiliate/referral-visits', { code })).body.referral_token);
    const { purchaseId } = await buy(alias, 'growth', wallet);
    const statement = await waitFor(async () => (await api('GET', '/api/affiliate/commissions', undefined, cleo.auth)).body, {
      until: (s) => s.total === 1, what: 'the alias\'s sale in Cleo\'s statement',
    });
    expect(statement.commissions).toEqual([expect.objectContaining({ purchase_id: purchaseId, amount: 0, status: 'reversed', refused_reason: 'shared_payer' })]);
    expect((await api('GET', '/api/affiliate/stats', undefined, cleo.auth)).body).toMatchObject({ total_referrals: 1, total_commissions: 0 });
  });

  it('queues a used pack for an admin, who approves it in full: only the credits left are removed', async () => {
    const carl = await register('Carl Spender');
    const { purchaseId, orderId } = await buy(carl, 'starter');
    await spend(carl, 50);
    const asked = await ask(carl, purchaseId);
    expect(asked.body).toMatchObject({ request: { status: 'pending', instant: false, amount_refunded: null } });
    expect(asked.body.message).toMatch(/an administrator reviews your request/);
    expect(paypal.refundsOf(orderId)).toEqual([]);

    const queue = await api('GET', '/api/admin/refunds', undefined, admin);
    const queued = queue.body.requests.find((r: { purchase_id: string }) => r.purchase_id === purchaseId);
    expect(queued).toMatchObject({ status: 'pending', user_email: carl.email, user_name: 'Carl Spender', plan_id: 'starter', purchase_amount: 19, purchase_credits: 100, unspent_credits: 60, provider_mode: 'sandbox', reason: 'It did not fit what I needed' });
    expect(await api('GET', '/api/admin/refunds', undefined, carl.auth)).toMatchObject({ status: 403 });

    const approved = await api('POST', `/api/admin/refunds/${queued.id}/approve`, { reason: 'Goodwill: first purchase' }, admin);
    expect(approved.body).toMatchObject({ request: { status: 'refunded', amount_refunded: 19, credits_reversed: 60, decision_reason: 'Goodwill: first purchase', refund_id: expect.any(String) } });
    expect(approved.body.message).toBe('Refunded $19.00 through PayPal (sandbox); 60 credits removed (40 credits had been spent).');
    expect(await balance(carl)).toBe(0);
    expect(paypal.refundsOf(orderId)).toEqual([expect.objectContaining({ amount: { currency_code: 'USD', value: '19.00' } })]);
    expect((await webhook(paypal.refundEvent(orderId))).body.outcome).toBe('already_refunded');
    expect(await balance(carl)).toBe(0);
    expect((await historyOf(carl))[0].refund_request).toMatchObject({ status: 'refunded', decision_reason: 'Goodwill: first purchase' });
    expect(await api('POST', `/api/admin/refunds/${queued.id}/approve`, { reason: 'again' }, admin)).toMatchObject({ status: 409, body: { code: 'nothing_to_refund' } });
  });

  it('approves in part: PayPal refunds that amount, the pack\'s share of credits goes, the partial webhook changes nothing', async () => {
    const dana = await register('Dana Partial');
    const { purchaseId, orderId } = await buy(dana, 'growth');
    await spend(dana, 200);
    const request = (await ask(dana, purchaseId)).body.request;
    // 40% of $49 back: 40% of the pack's 330 credits, 132, leave the 140 in the balance.
    const approved = await api('POST', `/api/admin/refunds/${request.id}/approve`, { amount: 19.6, reason: 'Unused part of the pack' }, admin);
    expect(approved.body).toMatchObject({ request: { status: 'refunded', amount_refunded: 19.6, credits_reversed: 132 } });
    expect(await balance(dana)).toBe(8);
    expect(paypal.refundsOf(orderId)).toEqual([expect.objectContaining({ amount: { currency_code: 'USD', value: '19.60' } })]);
    expect(paypal.refunded(orderId)).toBe(false);
    expect((await webhook(paypal.refundEvent(orderId, 'PAYMENT.CAPTURE.REFUNDED', '19.60'))).body.outcome).toBe('already_refunded');
    expect(await balance(dana)).toBe(8);
    const mail = await waitForMail(mailDir, dana.email, /^Your Leadforge refund: \$19\.60$/);
    expect(mail.text).toContain('132');
  });

  it('declines with a reason: nothing moves, the buyer sees the decision; wrong amounts and late decisions are refused', async () => {
    const eve = await register('Eve Declined');
    const { purchaseId, orderId } = await buy(eve, 'starter');
    await spend(eve, 20);
    const request = (await ask(eve, purchaseId)).body.request;
    expect(await api('POST', `/api/admin/refunds/${request.id}/approve`, { amount: 25, reason: 'too much' }, admin))
      .toMatchObject({ status: 400, body: { detail: 'A refund can be at most $19.00, the amount paid', code: 'refund_amount_exceeded' } });
    expect(await api('POST', `/api/admin/refunds/${request.id}/decline`, { reason: '' }, admin)).toMatchObject({ status: 400, body: { detail: expect.stringContaining('reason') } });
    const declined = await api('POST', `/api/admin/refunds/${request.id}/decline`, { reason: 'Most of the pack was used for leads already delivered' }, admin);
    expect(declined.body).toMatchObject({ request: { status: 'declined', amount_refunded: null } });
    expect(await balance(eve)).toBe(90);
    expect(paypal.refundsOf(orderId)).toEqual([]);
    expect((await historyOf(eve))[0]).toMatchObject({ status: 'completed', refund_request: { status: 'declined', decision_reason: 'Most of the pack was used for leads already delivered' } });
    expect(await api('POST', `/api/admin/refunds/${request.id}/approve`, { reason: 'changed my mind' }, admin)).toMatchObject({ status: 409, body: { code: 'refund_request_decided' } });
    expect(await api('POST', '/api/admin/refunds/00000000-0000-4000-8000-000000000000/decline', { reason: 'none' }, admin)).toMatchObject({ status: 404, body: { code: 'refund_request_not_found' } });
    expect(await api('POST', `/api/payments/purchases/${purchaseId}/refund-request`, { reason: 'x' }, eve.auth)).toMatchObject({ status: 400, body: { detail: 'Please give a reason of 3 to 500 characters' } });
    expect(await ask(eve, '00000000-0000-4000-8000-000000000000')).toMatchObject({ status: 404, body: { code: 'purchase_not_found' } });
  });

  it('an approval racing PayPal\'s webhook removes the credits once', async () => {
    const finn = await register('Finn Race');
    const growth = await buy(finn, 'growth');
    await spend(finn, 20);
    const request = (await ask(finn, growth.purchaseId)).body.request;
    expect(request.status).toBe('pending');
    await buy(finn, 'starter');
    expect(await balance(finn)).toBe(420);
    // PayPal refunds at once but answers late: its webhook arrives while the approval waits.
    paypal.failNext('refund', 'slow-after', { delayMs: 400 });
    const approval = api('POST', `/api/admin/refunds/${request.id}/approve`, { reason: 'Race' }, admin);
    await waitFor(() => paypal.refundsOf(growth.orderId).length, { until: (n) => n === 1, intervalMs: 5, what: 'PayPal to refund' });
    const [early, again] = await Promise.all([webhook(paypal.refundEvent(growth.orderId)), webhook(paypal.refundEvent(growth.orderId))]);
    expect([early.body.outcome, again.body.outcome].sort()).toEqual(['already_refunded', 'refunded']);
    expect((await approval).body).toMatchObject({ request: { status: 'refunded', credits_reversed: 330 } });
    expect(await balance(finn)).toBe(90);
  });

  it('a refund racing a search reservation never goes below zero and keeps the totals exact', async () => {
    const rounds = await Promise.all(Array.from({ length: 4 }, async (_, i) => {
      const gina = await register(`Gina Race ${i}`);
      const { purchaseId } = await buy(gina, 'growth');
      const [refund, reservation] = await Promise.all([
        ask(gina, purchaseId),
        internal('POST', '/internal/reservations', { user_id: gina.id, amount: 100, ref: `search:race-${i}`, idempotency_key: crypto.randomUUID() }),
      ]);
      return { gina, refund, reservation, after: await balance(gina) };
    }));
    for (const { refund, reservation, after } of rounds) {
      expect(refund.status).toBe(200);
      const removed = refund.body.request.credits_reversed ?? 0;
      const reserved = reservation.status === 201 ? 100 : 0;
      // Either the refund came first (instant: 330 gone, the search refused), or the search did (queued).
      if (refund.body.request.status === 'refunded') expect({ removed, reservation: reservation.status }).toEqual({ removed: 330, reservation: 402 });
      else expect({ status: refund.body.request.status, reserved }).toEqual({ status: 'pending', reserved: 100 });
      expect(after).toBe(340 - removed - reserved);
      expect(after).toBeGreaterThanOrEqual(0);
    }
  });
});
