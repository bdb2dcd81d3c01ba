import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../stack/src/freePort.ts';
import { startLocalStack, type LocalStackProcess } from '../support/localStack.ts';
import { apiClient, bearer, loopbackAddresses } from '../support/api.ts';
import { waitFor } from '@leadforge/testing';

const REFERRAL_SECRET = `system-test-referral-secret-${crypto.randomBytes(8).toString('hex')}`;
const INTERNAL_TOKEN = crypto.randomBytes(24).toString('hex');
const DAY_MS = 24 * 3600 * 1000;

/**
 * The referral token format (docs/affiliate-and-contact.md), written out independently of the
 * service: CODE.<visit time, base-36 seconds>.<HMAC-SHA256, base64url, first 22 characters>.
 */
function referralToken(code: string, visitedAt: Date): string {
  const payload = `${code}.${Math.floor(visitedAt.getTime() / 1000).toString(36)}`;
  return `${payload}.${crypto.createHmac('sha256', REFERRAL_SECRET).update(payload).digest('base64url').slice(0, 22)}`;
}

/** An affiliate's stats once they count `referrals` referrals. */
const referralsCounted = (read: () => Promise<{ total_referrals: number }>, referrals: number) =>
  waitFor(read, { until: (s) => s.total_referrals >= referrals, what: `${referrals} referrals counted` });

describe('the referral programme through the gateway, started as `npm start` starts it', () => {
  let stack: LocalStackProcess;
  let api: ReturnType<typeof apiClient>;
  let billingPort: number;

  // Each person registers from their own address: one address registering twice in a day is taken for one person.
  const nextAddress = loopbackAddresses();
  const register = async (name: string, email: string, referralCode?: string) => {
    const res = await apiClient(stack.url, { from: nextAddress() })('POST', '/api/auth/register', { name, email, password: 'secret123', ...(referralCode ? { referral_code: referralCode } : {}) });
    expect(res.status).toBe(201);
    return { id: res.body.user.id as string, auth: bearer(res.body.access_token) };
  };
  const stats = async (who: { auth: Record<string, string> }) => (await api('GET', '/api/affiliate/stats', undefined, who.auth)).body;
  /** What the SPA does when a visitor lands on the link: trade ?ref=CODE for the signed token. */
  const follow = async (link: string, headers: Record<string, string> = {}) => {
    const code = new URL(link).searchParams.get('ref')!;
    return api('POST', '/api/affiliate/referral-visits', { code }, headers);
  };

  let ada: { id: string; auth: Record<string, string> };
  let link: string;
  let bob: { id: string; auth: Record<string, string> };
  let markers = 0;
  /**
   * A referral to Bob registered after the registrations under test: once Bob counts it, those were
   * handled too (auth's outbox relay publishes in order and, on the in-process bus, a batch only once it
   * has been handled). Bob's count is a marker Ada's cannot move, so a wrong count of Ada's shows.
   */
  const markerReferralCounted = async () => {
    markers += 1;
    const bobsLink = (await stats(bob)).referral_link as string;
    await register(`Marker ${markers}`, `marker.${markers}@example.com`, (await follow(bobsLink)).body.referral_token);
    await referralsCounted(() => stats(bob), markers);
  };

  beforeAll(async () => {
    billingPort = await freePort();
    stack = await startLocalStack({ env: { AFFILIATE_REFERRAL_SECRET: REFERRAL_SECRET, INTERNAL_TOKEN, BILLING_PORT: String(billingPort), AUTH_REGISTER_PER_IP_PER_HOUR: '100' } });
    api = apiClient(stack.url);
  }, 180_000);
  afterAll(async () => { await stack?.stop(); });

  it('A shares the link and B registers through it: A sees one referral', async () => {
    ada = await register('Ada Referrer', 'ada.referrer@example.com');
    const mine = await stats(ada);
    expect(mine).toMatchObject({ total_referrals: 0, total_commissions: 0 });
    link = mine.referral_link;
    expect(link).toBe(`${stack.url}/?ref=${mine.referral_code}`);

    const landed = await follow(link);
    expect(landed.status).toBe(201);
    bob = await register('Bob Referred', 'bob.referred@example.com', landed.body.referral_token);
    expect((await referralsCounted(() => stats(ada), 1)).total_referrals).toBe(1);
  });

  it('refuses self-referral: A following their own link, and A\'s second mailbox alias', async () => {
    expect(await follow(link, ada.auth)).toMatchObject({ status: 400, body: { detail: 'You cannot use your own referral link' } });
    const token = (await follow(link)).body.referral_token;
    await register('Ada Again', 'ada.referrer+second@example.com', token);
    await register('Cleo Referred', 'cleo.referred@example.com', (await follow(link)).body.referral_token);
    await markerReferralCounted();
    expect((await stats(ada)).total_referrals).toBe(2);
  });

  it('attributes nothing to a visit older than 60 days', async () => {
    const code = new URL(link).searchParams.get('ref')!;
    await register('Old Visitor', 'old.visitor@example.com', referralToken(code, new Date(Date.now() - 61 * DAY_MS)));
    await register('Recent Visitor', 'recent.visitor@example.com', referralToken(code, new Date(Date.now() - 59 * DAY_MS)));
    await markerReferralCounted();
    expect((await stats(ada)).total_referrals).toBe(3);
  });

  it('B buys Growth ($49) through billing\'s test checkout: A earns $4.90 once, and B\'s refund takes it back', async () => {
    const created = await api('POST', '/api/payments/create', { plan_id: 'growth' }, bob.auth);
    expect(created.status).toBe(200);
    const orderId = created.body.payment_id;
    const approved = await api('POST', `/api/payments/test-checkout/${orderId}/approve`, {});
    expect(approved.status).toBe(200);
    // A double click executes twice; the purchase and its commission happen once.
    const executions = await Promise.all([1, 2].map(() => api('POST', '/api/payments/execute', { payment_id: orderId, payer_id: approved.body.payer_id }, bob.auth)));
    expect(executions.map((e) => e.status)).toEqual([200, 200]);

    const earned = await waitFor(() => stats(ada), { until: (s) => s.total_commissions > 0, what: 'Ada\'s commission' });
    expect(earned).toMatchObject({ total_referrals: 3, total_commissions: 4.9 });
    const statement = (await api('GET', '/api/affiliate/commissions', undefined, ada.auth)).body;
    expect(statement.commissions).toEqual([expect.objectContaining({ plan_id: 'growth', sale_amount: 49, amount: 4.9, status: 'pending' })]);

    const history = (await api('GET', '/api/payments/history', undefined, bob.auth)).body.purchases;
    const refund = await fetch(`http://127.0.0.1:${billingPort}/internal/purchases/${history[0].id}/refund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-internal-token': INTERNAL_TOKEN },
      body: JSON.stringify({ actor_id: ada.id, reason: 'system test refund' }),
    });
    expect(refund.status).toBe(200);
    expect((await waitFor(() => stats(ada), { until: (s) => s.total_commissions === 0, what: 'Ada\'s commission taken back' })).total_commissions).toBe(0);
  });

  it('validates and rate-limits affiliate applications through the gateway', async () => {
    expect((await api('POST', '/api/affiliate/apply', { name: '', email: '' })).body.detail).toBe('Please fill in all required fields');
    const ok = await api('POST', '/api/affiliate/apply', { name: 'Ada Referrer', email: 'ada.paypal@example.com', website: 'ada.example.com' }, ada.auth);
    expect(ok.status).toBe(201);
    expect(ok.body.message).toContain('ada.paypal@example.com');
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await api('POST', '/api/affiliate/apply', { name: 'Spam', email: 'spam@example.com' })).status);
    expect(statuses.at(-1)).toBe(429);
  });
});
