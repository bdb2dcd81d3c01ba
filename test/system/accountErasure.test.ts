import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@leadforge/kit/db';
import { bearer } from '../support/api.ts';
import { ADMIN_EMAIL, startProductAround, type ProductAround } from '../support/productAround.ts';
import { waitForMail } from '@leadforge/testing';

const NAME = 'Zebulon Quaxley';
const RENAMED = 'Zebulon Q. Quaxley';
const EMAIL = 'zebulon.quaxley@example.com';
const CONTACT_MESSAGE = 'Zebulon here: do you cover the bakeries of Quaxton?';
const APPLICATION_SITE = 'https://quaxley-leads.example.com/';

/** Every row of every table of a service's database, as one lower-case string. */
async function everyRow(db: Db): Promise<string> {
  const tables: { table_name: string }[] = (await db.raw(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
  )).rows;
  const dumps = await Promise.all(tables.map(async ({ table_name }) => `${table_name}: ${JSON.stringify(await db(table_name).select())}`));
  return dumps.join('\n').toLowerCase();
}

/**
 * The whole product as `npm start` assembles it (every service on its own database, the in-process
 * bus, the gateway), used through the gateway as a user would; then each service's own database is
 * read directly to prove what it still holds.
 */
describe('account deletion through the gateway erases the user\'s personal data in every service', () => {
  let product: ProductAround;
  let admin: string;
  const db = (service: string) => product.stack.services.find((s) => s.name === service)!.ctx.db;
  const api = (...args: Parameters<ProductAround['api']>) => product.api(...args);

  beforeAll(async () => {
    product = await startProductAround({ sites: 20 });
    admin = (await api('POST', '/api/auth/login', { email: ADMIN_EMAIL, password: 'secret123' })).body.access_token;
  }, 240_000);
  afterAll(async () => product?.close());

  it('emails a refund notice when billing refunds a purchase', async () => {
    const reg = await api('POST', '/api/auth/register', { name: 'Refunded Rita', email: 'rita@example.com', password: 'refund-me' });
    const token = reg.body.access_token as string;
    const created = await api('POST', '/api/payments/create', { plan_id: 'starter', return_url: 'http://localhost/credits', cancel_url: 'http://localhost/credits' }, bearer(token));
    const approved = await api('POST', `/api/payments/test-checkout/${created.body.payment_id}/approve`);
    expect((await api('POST', '/api/payments/execute', { payment_id: created.body.payment_id, payer_id: approved.body.payer_id }, bearer(token))).status).toBe(200);
    const [purchase] = (await api('GET', '/api/payments/history', undefined, bearer(token))).body.purchases;

    // An admin's refund, as the admin panel asks billing for it (billing's internal route).
    const billing = product.stack.services.find((s) => s.name === 'billing')!;
    const refund = await fetch(`${billing.url}/internal/purchases/${purchase.id}/refund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-internal-token': billing.ctx.config.internalToken },
      body: JSON.stringify({ actor_id: reg.body.user.id, reason: 'asked for it' }),
    });
    expect(refund.status).toBe(200);
    const notice = await waitForMail(path.join(product.stack.env.DATA_DIR!, 'mail'), 'rita@example.com', /^Your Leadforge refund: \$19\.00$/);
    expect(notice.text).toContain('Credits taken back: 100');
    expect(notice.text).toContain(`Reference: ${purchase.id}`);
  }, 60_000);

  const stats = async () => (await api('GET', '/api/admin/enhanced-stats?include=stats', undefined, bearer(admin))).body.stats;

  it('exports everything first, then deletes: the login ends at once and every service forgets the person', async () => {
    const reg = await api('POST', '/api/auth/register', { name: NAME, email: EMAIL, password: 'quaxley-1' });
    expect(reg.status).toBe(201);
    const user = { id: reg.body.user.id as string, token: reg.body.access_token as string };
    await product.setCredits(user.id, user.token, 40);

    // Data in every service: a purchase (billing, affiliate, admin), a search (leads, scraper), a
    // contact message (contact, admin), an affiliate application (affiliate), a rename (auth, admin).
    const created = await api('POST', '/api/payments/create', { plan_id: 'starter', return_url: 'http://localhost/credits', cancel_url: 'http://localhost/credits' }, bearer(user.token));
    const approved = await api('POST', `/api/payments/test-checkout/${created.body.payment_id}/approve`);
    expect((await api('POST', '/api/payments/execute', { payment_id: created.body.payment_id, payer_id: approved.body.payer_id }, bearer(user.token))).status).toBe(200);
    product.setSource('full');
    const search = await api('POST', '/api/generate-leads', { industry: 'Dentists', location: 'Quaxton', quantity: 3 }, bearer(user.token));
    expect(search.status).toBe(200);
    expect(search.body.leads.length).toBeGreaterThan(0);
    expect((await api('POST', '/api/contact', { name: NAME, email: EMAIL.toUpperCase(), message: CONTACT_MESSAGE, recaptcha_token: `local-test.${'c'.repeat(32)}` })).status).toBe(201);
    expect((await api('POST', '/api/affiliate/apply', { name: NAME, email: EMAIL, website: APPLICATION_SITE, message: 'I run a newsletter' }, bearer(user.token))).status).toBeLessThan(300);
    expect((await api('PATCH', '/api/auth/me', { name: RENAMED }, bearer(user.token))).status).toBe(200);
    // The rename reaches the admin read model.
    await expect.poll(async () => (await db('admin')('rm_users').where({ user_id: user.id }).first())?.name, { timeout: 10_000 }).toBe(RENAMED);
    await expect.poll(async () => (await db('admin')('rm_contact_submissions').whereRaw('lower(email) = ?', [EMAIL]).count({ n: '*' }).first())?.n, { timeout: 10_000 }).toBe(1);
    await expect.poll(async () => (await db('admin')('rm_purchases').where({ user_id: user.id })).length, { timeout: 10_000 }).toBe(1);

    // The export: one file from every service.
    const exported = await fetch(`${product.stack.url}/api/account/export`, { headers: bearer(user.token) });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-disposition')).toMatch(/^attachment; filename="leadforge-data-\d{4}-\d{2}-\d{2}\.json"$/);
    const file = await exported.json();
    expect(file.account).toMatchObject({ id: user.id, name: RENAMED, email: EMAIL, notify_search_ready: true });
    expect(file.billing.emails_sent.map((m: { kind: string }) => m.kind)).toContain('receipt');
    expect(file.billing.purchases).toEqual([expect.objectContaining({ plan_id: 'starter', amount: 19, credits: 100, status: 'completed' })]);
    expect(file.billing.credit_ledger.map((e: { reason: string }) => e.reason)).toEqual(expect.arrayContaining(['signup', 'purchase', 'generation']));
    expect(file.leads.lead_searches).toEqual([expect.objectContaining({ industry: 'Dentists', location: 'Quaxton', leads: expect.arrayContaining([expect.objectContaining({ company: expect.any(String) })]) })]);
    expect(file.contact.contact_messages).toEqual([expect.objectContaining({ message: CONTACT_MESSAGE })]);
    expect(file.affiliate.applications).toEqual([expect.objectContaining({ website: APPLICATION_SITE })]);
    expect(typeof file.affiliate.referral_code).toBe('string');
    expect((await api('GET', '/api/account/export')).status).toBe(401);

    const before = await stats();
    const wrong = await api('DELETE', '/api/account', { password: 'not-it' }, bearer(user.token));
    expect(wrong).toMatchObject({ status: 400, body: { detail: 'Your password is incorrect' } });
    expect(await api('DELETE', '/api/account', { password: 'quaxley-1' }, bearer(user.token))).toMatchObject({ status: 200, body: { message: 'Your account has been deleted.' } });
    expect((await api('GET', '/api/auth/me', undefined, bearer(user.token))).status).toBe(401);
    expect((await api('POST', '/api/auth/login', { email: EMAIL, password: 'quaxley-1' })).status).toBe(401);

    // No service's database holds the name, the address, the contact message, the application or
    // what was searched for.
    const personal = [NAME, RENAMED, EMAIL, CONTACT_MESSAGE, APPLICATION_SITE, 'quaxton'].map((s) => s.toLowerCase());
    for (const service of ['auth', 'billing', 'leads', 'scraper', 'affiliate', 'contact', 'admin']) {
      await expect.poll(async () => {
        const rows = await everyRow(db(service));
        return personal.filter((p) => rows.includes(p));
      }, { timeout: 20_000, message: `${service} still holds personal data` }).toEqual([]);
    }
    // Id-linked rows: the searches and their leads are gone; money records keep amounts and ids.
    expect(await db('leads')('lead_searches').where({ user_id: user.id })).toEqual([]);
    expect(await db('billing')('purchases').where({ user_id: user.id }).select('amount_cents', 'status')).toEqual([{ amount_cents: 1900, status: 'completed' }]);
    expect(await db('admin')('rm_users').where({ user_id: user.id }).first()).toMatchObject({ name: null, email: null, status: 'deleted' });
    expect(await db('affiliate')('affiliates').where({ user_id: user.id }).first()).toMatchObject({ name: '', email: '' });

    // Admin figures: one user fewer and their forfeited credits gone; revenue and usage as they were.
    await expect.poll(async () => (await stats()).users.total, { timeout: 10_000 }).toBe(before.users.total - 1);
    const after = await stats();
    expect(after.revenue).toEqual(before.revenue);
    expect(after.usage).toEqual(before.usage);
    expect(after.credits.total_in_system).toBeLessThan(before.credits.total_in_system);

    // The address signs up again: a new account, without a second signup grant.
    const again = await api('POST', '/api/auth/register', { name: 'Zeb Again', email: EMAIL, password: 'quaxley-2' });
    expect(again.status).toBe(201);
    expect(again.body.user.id).not.toBe(user.id);
    await expect.poll(async () => (await db('billing')('signups').where({ user_id: again.body.user.id })).length, { timeout: 10_000 }).toBe(1);
    expect(await db('billing')('credit_ledger').where({ user_id: again.body.user.id })).toEqual([]);
    expect((await api('GET', '/api/auth/me', undefined, bearer(again.body.access_token))).body.credits).toBe(0);
  }, 180_000);
});
