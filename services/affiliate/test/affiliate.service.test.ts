import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresConfigured, startServiceForTest, type TestDatabaseKind } from '@leadforge/testing';
import { createMemoryBus, payerKeys, type Payer } from '@leadforge/kit/events';
import type { RunningService } from '@leadforge/kit/service';
import type { Bus } from '@leadforge/kit/events';
import affiliateService from '../src/index.ts';
import { checkReferralToken, signReferralToken } from '../src/domain/referralTokens.ts';
import { recordPurchase } from '../src/domain/commissions.ts';
import { recordRegistration } from '../src/domain/referrals.ts';
import { startAuthStandIn, type StandInUser } from './support/authStandIn.ts';
import { publishEvent } from './support/events.ts';

const SECRET = 'affiliate-service-test-secret-0123456789abcdef';
const PUBLIC_URL = 'https://leadforge.example';
const DAY_MS = 24 * 3600 * 1000;
const kinds: TestDatabaseKind[] = ['pglite', 'postgres'];

for (const kind of kinds) {
  describe.skipIf(kind === 'postgres' && !postgresConfigured)(`affiliate service on ${kind}${kind === 'postgres' && !postgresConfigured ? ' (skipped: no PostgreSQL; apt-get install -y postgresql)' : ''}`, () => {
    let svc: RunningService;
    let bus: Bus;
    let auth: Awaited<ReturnType<typeof startAuthStandIn>>;

    const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(`${svc.url}${path}`, {
        method,
        headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };

    let seq = 0;
    const newUser = (label: string, email?: string): StandInUser => {
      seq += 1;
      return { id: crypto.randomUUID(), name: `${label} ${seq}`, email: email ?? `${label.toLowerCase()}${seq}@example.com` };
    };
    const register = (user: StandInUser, referralCode?: string, createdAt = new Date(), signup: { signup_address?: string; device_id?: string } = {}) =>
      publishEvent(bus, 'user.registered', user.id, {
        user_id: user.id, name: user.name, email: user.email, role: 'user', status: 'active', created_at: createdAt.toISOString(),
        ...(referralCode ? { referral_code: referralCode } : {}),
        ...signup,
      });
    let clockFile = '';
    /** Moves the service's clock (CLOCK_FILE) ahead of the machine's: the refund window passes without waiting. */
    const clockAhead = (ms: number) => fs.writeFile(clockFile, String(ms));
    const buy = (user: StandInUser, purchaseId: string, amount: number, planId = 'growth', completedAt = new Date(), eventId?: string, payer?: Payer) =>
      publishEvent(bus, 'purchase.completed', user.id, {
        purchase_id: purchaseId, user_id: user.id, plan_id: planId, amount, currency: 'USD', credits: 330, completed_at: completedAt.toISOString(),
        ...(payer ? { payer_keys: payerKeys(payer) } : {}),
      }, eventId);
    /** A purchase paid through PayPal by `payer` (billing sends only the hashes). */
    const buyAs = (user: StandInUser, payer: Payer, amount = 49, planId = 'growth') => {
      const purchaseId = `PUR-${crypto.randomUUID()}`;
      return buy(user, purchaseId, amount, planId, new Date(), undefined, payer).then(() => purchaseId);
    };
    const statementOf = async (user: StandInUser) => (await call('GET', '/api/affiliate/commissions', undefined, auth.bearer(user))).body;
    const refund = (user: StandInUser, purchaseId: string, amount: number) =>
      publishEvent(bus, 'purchase.refunded', user.id, { purchase_id: purchaseId, user_id: user.id, amount, credits_reversed: 330, refunded_at: new Date().toISOString() });
    const stats = async (user: StandInUser) => (await call('GET', '/api/affiliate/stats', undefined, auth.bearer(user))).body;
    const visit = async (code: string, headers: Record<string, string> = {}) => call('POST', '/api/affiliate/referral-visits', { code }, headers);
    const referralOf = (userId: string) => svc.ctx.db('referrals').where({ referred_user_id: userId }).first();

    /** A referrer with a code, and a token as if a visitor had just followed their link. */
    async function referrerWithLink(label = 'Referrer') {
      const referrer = newUser(label);
      await register(referrer);
      const { referral_code: code } = await stats(referrer);
      const token = (await visit(code)).body.referral_token as string;
      return { referrer, code, token };
    }

    beforeAll(async () => {
      clockFile = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'leadforge-affiliate-clock-')), 'offset');
      auth = await startAuthStandIn();
      bus = createMemoryBus();
      svc = await startServiceForTest(affiliateService, {
        kind,
        bus,
        env: { AUTH_URL: auth.url, AFFILIATE_REFERRAL_SECRET: SECRET, PUBLIC_URL, PAYPAL_CLIENT_ID: '', PAYPAL_CLIENT_SECRET: '', AFFILIATE_APPLY_PER_IP_PER_HOUR: '4', AFFILIATE_VISITS_PER_IP_PER_MINUTE: '10000', AFFILIATE_MATURING_SWEEP_MS: '1000', CLOCK_FILE: clockFile },
      });
    });
    afterAll(async () => {
      await svc?.stop();
      await bus?.close();
      await auth?.close();
    });

    it('gives every registered user one referral code and link, even when the event comes twice', async () => {
      const ada = newUser('Ada');
      await register(ada);
      await register(ada);
      const first = await stats(ada);
      expect(first).toEqual({
        total_referrals: 0, total_commissions: 0, referral_code: expect.stringMatching(/^[A-HJ-NP-Z2-9]{8}$/), referral_link: `${PUBLIC_URL}/?ref=${first.referral_code}`,
        // No application needed; payouts go to the account's email until one is set.
        application: null, payout_email: ada.email, payout_email_source: 'account',
      });
      expect(await svc.ctx.db('affiliates').where({ user_id: ada.id }).count({ n: '*' })).toEqual([{ n: 1 }]);
    });

    it('creates the code on first visit of the stats for a user registered before the service existed', async () => {
      const early = newUser('Early');
      const body = await stats(early);
      expect(body.referral_code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
      expect((await stats(early)).referral_code).toBe(body.referral_code);
    });

    it('refuses the stats without a valid token', async () => {
      expect((await call('GET', '/api/affiliate/stats')).status).toBe(401);
      expect((await call('GET', '/api/affiliate/stats', undefined, { authorization: 'Bearer x.y.z' })).status).toBe(401);
    });

    it('signs a referral token for a known code, and refuses unknown codes and the owner following their own link', async () => {
      const { referrer, code } = await referrerWithLink();
      const res = await visit(code.toLowerCase());
      expect(res.status).toBe(201);
      expect(res.body.max_age_seconds).toBe(60 * 24 * 3600);
      expect(res.body.referral_token.length).toBeLessThanOrEqual(64);
      expect(checkReferralToken(SECRET, res.body.referral_token, new Date())).toMatchObject({ ok: true, code });
      expect(await visit('NOSUCHCODE')).toEqual({ status: 404, body: { detail: 'Unknown referral code', code: 'unknown_referral_code' } });
      expect(await visit(code, auth.bearer(referrer))).toEqual({ status: 400, body: { detail: 'You cannot use your own referral link', code: 'self_referral' } });
      expect((await call('POST', '/api/affiliate/referral-visits', {})).body.detail).toBe('code is required');
    });

    it('attributes a referred registration and pays 10% of a Growth purchase once, however often the event comes', async () => {
      const { referrer, token } = await referrerWithLink();
      const buyer = newUser('Buyer');
      await register(buyer, token);
      expect(await referralOf(buyer.id)).toMatchObject({ referrer_id: referrer.id, status: 'attributed' });

      const purchaseId = `PUR-${crypto.randomUUID()}`;
      const completedAt = new Date();
      const eventId = crypto.randomUUID();
      // The same event redelivered, and the purchase re-announced under new event ids, concurrently.
      await Promise.all([
        buy(buyer, purchaseId, 49, 'growth', completedAt, eventId),
        buy(buyer, purchaseId, 49, 'growth', completedAt, eventId),
        ...Array.from({ length: 4 }, () => buy(buyer, purchaseId, 49, 'growth', completedAt)),
      ]);

      expect(await stats(referrer)).toMatchObject({ total_referrals: 1, total_commissions: 4.9 });
      const statement = (await call('GET', '/api/affiliate/commissions', undefined, auth.bearer(referrer))).body;
      expect(statement.total).toBe(1);
      expect(statement.commissions[0]).toMatchObject({ purchase_id: purchaseId, plan_id: 'growth', sale_amount: 49, amount: 4.9, status: 'pending', paid_at: null });
      expect(Date.parse(statement.commissions[0].payable_at) - completedAt.getTime()).toBe(7 * DAY_MS);
      expect(statement.totals).toEqual({ pending: 4.9, payable: 0, paid: 0 });
      expect(statement.next_payout).toMatchObject({ minimum: 50, threshold_reached: false });

      const announced = await svc.ctx.db('kit_outbox').where({ topic: 'affiliate.commission' }).whereRaw("envelope->'data'->>'purchase_id' = ?", [purchaseId]);
      expect(announced.map((row) => row.envelope.data)).toEqual([expect.objectContaining({ referrer_id: referrer.id, referred_user_id: buyer.id, amount: 4.9, status: 'pending' })]);
    });

    it('creates one commission when the same purchase is applied in many transactions at once', async () => {
      const { referrer, token } = await referrerWithLink();
      const buyer = newUser('Racer');
      await register(buyer, token);
      const data = { purchase_id: `PUR-${crypto.randomUUID()}`, user_id: buyer.id, plan_id: 'agency', amount: 99, currency: 'USD', credits: 1100, completed_at: new Date().toISOString() };
      const results = await Promise.allSettled(Array.from({ length: 8 }, () => svc.ctx.db.transaction((trx) => recordPurchase(trx, data))));
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      expect(await svc.ctx.db('commissions').where({ purchase_id: data.purchase_id }).select('amount_cents')).toEqual([{ amount_cents: 990 }]);
      expect((await stats(referrer)).total_commissions).toBe(9.9);
    });

    it('pays the commission when the referred signup and the purchase are applied at the same time', async () => {
      const { referrer, token } = await referrerWithLink();
      const buyer = newUser('Simultaneous');
      const purchase = { purchase_id: `PUR-${crypto.randomUUID()}`, user_id: buyer.id, plan_id: 'agency', amount: 99, currency: 'USD', credits: 1100, completed_at: new Date().toISOString() };
      // After a broker outage both events arrive at once, on two topics: the signup's transaction is still open when the purchase is applied.
      const signup = await svc.ctx.db.transaction();
      await recordRegistration(signup, SECRET, { user_id: buyer.id, name: buyer.name, email: buyer.email, role: 'user', status: 'active', created_at: new Date().toISOString(), referral_code: token });
      const applied = svc.ctx.db.transaction((trx) => recordPurchase(trx, purchase));
      // The purchase is waiting on the signup: for its buyer's lock (Postgres), or for the one connection the signup holds (PGlite).
      const purchaseWaits = async () => kind === 'postgres'
        ? (await signup.raw("SELECT count(*)::int AS waiting FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())")).rows[0].waiting > 0
        : svc.ctx.db.client.pool.numPendingAcquires() > 0;
      await expect.poll(purchaseWaits, { timeout: 10_000 }).toBe(true);
      await signup.commit();
      await applied;
      expect(await svc.ctx.db('commissions').where({ purchase_id: purchase.purchase_id }).select('amount_cents')).toEqual([{ amount_cents: 990 }]);
      expect(await stats(referrer)).toMatchObject({ total_referrals: 1, total_commissions: 9.9 });
    });

    it('claws the commission back when the purchase is refunded', async () => {
      const { referrer, token } = await referrerWithLink();
      const buyer = newUser('Refunder');
      await register(buyer, token);
      const purchaseId = `PUR-${crypto.randomUUID()}`;
      await buy(buyer, purchaseId, 99, 'agency');
      expect((await stats(referrer)).total_commissions).toBe(9.9);
      await refund(buyer, purchaseId, 99);
      await refund(buyer, purchaseId, 99);
      expect(await stats(referrer)).toMatchObject({ total_referrals: 1, total_commissions: 0 });
      const statement = (await call('GET', '/api/affiliate/commissions', undefined, auth.bearer(referrer))).body;
      expect(statement.commissions[0]).toMatchObject({ amount: 0, sale_amount: 0, status: 'reversed' });
      expect(statement.totals).toEqual({ pending: 0, payable: 0, paid: 0 });
    });

    it('lowers the commission to 10% of what the buyer kept when an admin refunds in part', async () => {
      const { referrer, token } = await referrerWithLink();
      const buyer = newUser('Partial Refunder');
      await register(buyer, token);
      const purchaseId = `PUR-${crypto.randomUUID()}`;
      await buy(buyer, purchaseId, 49, 'growth');
      expect((await stats(referrer)).total_commissions).toBe(4.9);
      await refund(buyer, purchaseId, 19.6);
      expect(await stats(referrer)).toMatchObject({ total_commissions: 2.94 });
      const statement = (await call('GET', '/api/affiliate/commissions', undefined, auth.bearer(referrer))).body;
      expect(statement.commissions[0]).toMatchObject({ amount: 2.94, sale_amount: 29.4, status: 'pending' });
    });

    it('refuses self-referral: a second account on the referrer\'s own mailbox earns nothing', async () => {
      const referrer = newUser('Self', `self.${crypto.randomBytes(3).toString('hex')}@gmail.com`);
      await register(referrer);
      const { referral_code: code } = await stats(referrer);
      const token = (await visit(code)).body.referral_token;
      const [local] = referrer.email.split('@');
      const alias = newUser('Alias', `${local.replace('.', '')}+second@googlemail.com`);
      await register(alias, token);
      expect(await referralOf(alias.id)).toMatchObject({ status: 'rejected', rejection_reason: 'self_referral' });
      await buy(alias, `PUR-${crypto.randomUUID()}`, 49);
      expect(await stats(referrer)).toMatchObject({ total_referrals: 0, total_commissions: 0 });
    });

    it('attributes a registration 59 days after the visit, but nothing after 60 days or for a forged token', async () => {
      const { referrer, code } = await referrerWithLink();
      const now = Date.now();
      const cases: [string, string | undefined][] = [
        [signReferralToken(SECRET, code, new Date(now - 59 * DAY_MS)), undefined],
        [signReferralToken(SECRET, code, new Date(now - 61 * DAY_MS)), 'expired'],
        [signReferralToken('another-secret-another-secret-0123456789', code, new Date(now)), 'bad_signature'],
        [signReferralToken(SECRET, code, new Date(now - 61 * DAY_MS)).replace(/\.[0-9a-z]+\./, `.${Math.floor(now / 1000).toString(36)}.`), 'bad_signature'],
        [code, 'malformed'],
      ];
      for (const [token, reason] of cases) {
        const visitor = newUser('Visitor');
        await register(visitor, token);
        expect(await referralOf(visitor.id)).toMatchObject(reason ? { status: 'rejected', rejection_reason: reason } : { status: 'attributed', referrer_id: referrer.id });
      }
      expect((await stats(referrer)).total_referrals).toBe(1);
    });

    it('pays for a purchase it saw before the registration that referred the buyer', async () => {
      const { referrer, token } = await referrerWithLink();
      const promoBuyer = newUser('Promo');
      await buy(promoBuyer, `PROMO-${crypto.randomUUID()}`, 19, 'cbc500_promo');
      await register(promoBuyer, token);
      expect(await stats(referrer)).toMatchObject({ total_referrals: 1, total_commissions: 1.9 });
    });

    it('makes a commission payable once its refund window has closed', async () => {
      const { referrer, token } = await referrerWithLink();
      const buyer = newUser('Old buyer');
      await register(buyer, token);
      await buy(buyer, `PUR-${crypto.randomUUID()}`, 19, 'starter', new Date(Date.now() - 8 * DAY_MS));
      await buy(buyer, `PUR-${crypto.randomUUID()}`, 49, 'growth', new Date());
      const statement = (await call('GET', '/api/affiliate/commissions?page_size=1', undefined, auth.bearer(referrer))).body;
      expect(statement).toMatchObject({ total: 2, page: 1, page_size: 1, totals: { pending: 4.9, payable: 1.9, paid: 0 } });
      expect(statement.commissions).toHaveLength(1);
      const second = (await call('GET', '/api/affiliate/commissions?page=2&page_size=1', undefined, auth.bearer(referrer))).body;
      expect(second.commissions[0]).toMatchObject({ plan_id: 'starter', status: 'payable', amount: 1.9 });
      expect((await call('GET', '/api/affiliate/commissions?page_size=1000', undefined, auth.bearer(referrer))).status).toBe(400);
    });

    it('makes a commission payable on its own once its refund window has closed, with no read or payout', async () => {
      const { referrer, token } = await referrerWithLink();
      const buyer = newUser('Quiet buyer');
      await register(buyer, token);
      await buy(buyer, `PUR-${crypto.randomUUID()}`, 19, 'starter', new Date(Date.now() - 8 * DAY_MS));
      const status = async () => (await svc.ctx.db('commissions').where({ referrer_id: referrer.id }).first())?.status;
      await expect.poll(status, { timeout: 10_000 }).toBe('payable');
    });

    it('holds a commission pending through the 7-day refund window, then makes it payable as the clock passes it', async () => {
      const { referrer, token } = await referrerWithLink();
      const buyer = newUser('Waited buyer');
      await register(buyer, token);
      await buy(buyer, `PUR-${crypto.randomUUID()}`, 19, 'starter');
      const commission = () => svc.ctx.db('commissions').where({ referrer_id: referrer.id }).first();
      await expect.poll(async () => (await commission())?.status).toBe('pending');
      await clockAhead(6 * DAY_MS);
      try {
        // Six days on, a read (which matures what is due) still finds it held.
        expect((await call('GET', '/api/affiliate/commissions', undefined, auth.bearer(referrer))).body.totals).toEqual({ pending: 1.9, payable: 0, paid: 0 });
        expect((await commission()).status).toBe('pending');
        await clockAhead(7 * DAY_MS + 60_000);
        await expect.poll(async () => (await commission())?.status, { timeout: 10_000 }).toBe('payable');
      } finally {
        await clockAhead(0);
      }
    });

    it('refuses a referral from the referrer\'s device, or from their signup address within a day, and says why', async () => {
      const device = crypto.randomBytes(12).toString('hex');
      const address = `198.51.100.${crypto.randomInt(1, 250)}`;
      const referrer = newUser('Two-account');
      const signedUp = new Date();
      await register(referrer, undefined, signedUp, { signup_address: address, device_id: device });
      const { referral_code: code } = await stats(referrer);
      const tokenAt = async () => (await visit(code)).body.referral_token as string;

      const sameDevice = newUser('Same device');
      await register(sameDevice, await tokenAt(), new Date(), { signup_address: '203.0.113.9', device_id: device });
      const sameAddress = newUser('Same address');
      await register(sameAddress, await tokenAt(), new Date(), { signup_address: address, device_id: crypto.randomBytes(12).toString('hex') });
      expect(await referralOf(sameDevice.id)).toMatchObject({ status: 'rejected', rejection_reason: 'same_device', referrer_id: referrer.id });
      expect(await referralOf(sameAddress.id)).toMatchObject({ status: 'rejected', rejection_reason: 'same_signup_address', referrer_id: referrer.id });
      await buy(sameDevice, `PUR-${crypto.randomUUID()}`, 49);
      await buy(sameAddress, `PUR-${crypto.randomUUID()}`, 49);
      expect(await stats(referrer)).toMatchObject({ total_referrals: 0, total_commissions: 0 });

      // Someone behind the same address two days after the referrer signed up, on a device of their own, is a real referral.
      await svc.ctx.db('signups').where({ user_id: referrer.id }).update({ registered_at: new Date(signedUp.getTime() - 2 * DAY_MS) });
      const later = newUser('Later');
      await register(later, await tokenAt(), new Date(), { signup_address: address, device_id: crypto.randomBytes(12).toString('hex') });
      expect(await referralOf(later.id)).toMatchObject({ status: 'attributed' });
    });

    it('refuses the commission of a buyer who paid with the referrer\'s own PayPal account, whichever purchase came first', async () => {
      const wallet = { id: `PAYER${crypto.randomBytes(4).toString('hex').toUpperCase()}`, email: 'shared.wallet@example.com' };
      // The buyer pays first, with the referrer's PayPal account: earned until the referrer's own purchase shows the account is theirs.
      const owner = await referrerWithLink('Wallet Owner');
      const borrower = newUser('Wallet Borrower');
      await register(borrower, owner.token);
      const borrowed = await buyAs(borrower, wallet);
      expect((await stats(owner.referrer)).total_commissions).toBe(4.9);
      await buyAs(owner.referrer, { id: wallet.id }, 19, 'starter');
      expect(await stats(owner.referrer)).toMatchObject({ total_referrals: 1, total_commissions: 0 });
      expect((await statementOf(owner.referrer)).commissions).toEqual([
        expect.objectContaining({ purchase_id: borrowed, sale_amount: 49, amount: 0, status: 'reversed', refused_reason: 'shared_payer' }),
      ]);

      // The referrer's purchase came first now: a buyer paying with that PayPal account earns nothing from the start.
      const second = newUser('Second Borrower');
      await register(second, (await visit(owner.code)).body.referral_token);
      await buyAs(second, { id: wallet.id, email: 'second.wallet@example.com' });
      expect((await stats(owner.referrer)).total_commissions).toBe(0);

      // PayPal's email is the referrer's own account address (typed in capitals).
      const own = await referrerWithLink('Own Address');
      const third = newUser('Third Borrower');
      await register(third, own.token);
      await buyAs(third, { id: 'PAYEROTHER2', email: own.referrer.email.toUpperCase() });
      expect((await statementOf(own.referrer)).commissions[0]).toMatchObject({ amount: 0, status: 'reversed', refused_reason: 'shared_payer' });

      // A buyer with a PayPal account of their own earns the referrer 10%, whatever the referrer pays with.
      const honest = await referrerWithLink('Honest');
      const customer = newUser('Customer');
      await register(customer, honest.token);
      await buyAs(customer, { id: 'PAYERCUSTOMER', email: 'customer.wallet@example.com' });
      await buyAs(honest.referrer, { id: 'PAYERHONEST', email: 'honest.wallet@example.com' }, 19, 'starter');
      expect((await statementOf(honest.referrer)).commissions).toEqual([expect.objectContaining({ amount: 4.9, status: 'pending' })]);
      expect((await statementOf(honest.referrer)).commissions[0].refused_reason).toBeUndefined();
    });

    it('validates and stores affiliate applications, linked to the signed-in applicant, and rate-limits them per IP', async () => {
      const applicant = newUser('Applicant');
      // An address of its own, so counters kept in Redis by earlier runs do not interfere.
      const from = { 'x-forwarded-for': `2001:db8:${crypto.randomBytes(2).toString('hex')}::${crypto.randomBytes(2).toString('hex')}` };
      const missing = await call('POST', '/api/affiliate/apply', { name: '  ', email: 'x@example.com' }, from);
      expect(missing).toMatchObject({ status: 400, body: { detail: 'Please fill in all required fields' } });
      const noEmail = await call('POST', '/api/affiliate/apply', { name: 'Ann' }, from);
      expect(noEmail).toMatchObject({ status: 400, body: { detail: 'Please fill in all required fields' } });
      const badSite = await call('POST', '/api/affiliate/apply', { name: 'Ann', email: 'ann@example.com', website: 'javascript:alert(1)' }, from);
      expect(badSite).toMatchObject({ status: 400, body: { detail: 'Please enter a valid website address' } });

      const ok = await call('POST', '/api/affiliate/apply', { name: ' Ann Blogger ', email: 'Ann@Example.com', website: 'annblogs.example.com', message: 'I write about sales.' }, { ...auth.bearer(applicant), ...from });
      expect(ok.status).toBe(201);
      expect(ok.body.message).toBe('Thank you for applying, Ann Blogger! We will review your application and reply to ann@example.com.');
      const stored = await svc.ctx.db('affiliate_applications').where({ user_id: applicant.id }).first();
      expect(stored).toMatchObject({ name: 'Ann Blogger', email: 'ann@example.com', website: 'https://annblogs.example.com/', message: 'I write about sales.' });

      const limited = await call('POST', '/api/affiliate/apply', { name: 'Ann', email: 'ann@example.com' }, from);
      expect(limited.status).toBe(429);
      expect(limited.body.detail).toMatch(/^Too many requests; try again in \d+ (second|seconds)$/);
    });

    it('erases a deleted account\'s name and addresses, keeping its code and commissions', async () => {
      const leaving = newUser('Leaving');
      await register(leaving);
      const { referral_code: code } = await stats(leaving);
      // As the application route stores one (its per-address limit is spent by the test above).
      await svc.ctx.db('affiliate_applications').insert({ id: crypto.randomUUID(), user_id: leaving.id, name: 'Leaving Person', email: leaving.email, website: 'https://leaving.example.com/', message: 'Hi', remote_ip: '::1' });
      await publishEvent(bus, 'user.status_changed', leaving.id, { user_id: leaving.id, status: 'deleted', actor_id: leaving.id });
      expect(await svc.ctx.db('affiliates').where({ user_id: leaving.id }).first('referral_code', 'name', 'email', 'canonical_email'))
        .toEqual({ referral_code: code, name: '', email: '', canonical_email: `deleted:${leaving.id}` });
      expect(await svc.ctx.db('affiliate_applications').where({ user_id: leaving.id }).select('name', 'email', 'website', 'message', 'remote_ip'))
        .toEqual([{ name: '', email: '', website: null, message: null, remote_ip: null }]);
    });

    it('handled every event it was given without parking one', async () => {
      expect(await svc.ctx.db('kit_dead_letters').select('event_id', 'error')).toEqual([]);
    });
  });
}
