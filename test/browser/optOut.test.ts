import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { SERVICE_DEFINITIONS } from '@leadforge/stack';
import { chromiumAvailable, launchBrowser, screenshot } from '../support/browser.ts';
import { ADMIN_EMAIL, startProductAround, type ProductAround } from '../support/productAround.ts';
import { waitForMail } from '@leadforge/testing';

const missing = ['billing', 'scraper', 'leads'].filter((name) => !SERVICE_DEFINITIONS.some((def) => def.name === name));
const why = [
  ...(!chromiumAvailable ? ['needs Debian chromium at /usr/bin/chromium'] : []),
  ...(missing.length ? [`waiting: ${missing.join(', ')} not yet in stack/src/services.ts`] : []),
];

/** A full-page shot from the top, so the sticky header sits where a person sees it. */
async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

describe.skipIf(why.length > 0)(`never pay twice and opt-out in the browser${why.length ? ` (${why.join('; ')})` : ''}`, () => {
  let product: ProductAround;
  let browser: Browser;
  let page: Page;
  let userToken = '';

  beforeAll(async () => {
    [product, browser] = await Promise.all([startProductAround({ latencyMs: 20, sites: 120 }), launchBrowser()]);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await product?.close();
  });

  async function openAs(token: string, path: string): Promise<Page> {
    await page?.close();
    page = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
    await page.goto(`${product.stack.url}/login`);
    await page.evaluate((t) => localStorage.setItem('token', t), token);
    await page.goto(`${product.stack.url}${path}`);
    return page;
  }
  const rows = () => page.getByTestId('leads-table').locator('tbody tr');

  async function generate(quantity: number) {
    await page.getByLabel('Industry').fill('Dentists');
    await page.getByLabel('Location').fill('London');
    await page.getByLabel('Number of leads').fill(String(quantity));
    await page.getByRole('button', { name: 'Generate Leads' }).click();
    await page.getByTestId('search-progress').waitFor();
    await page.getByTestId('search-progress').waitFor({ state: 'detached', timeout: 60_000 });
  }

  it('a second search of the same area skips what the user has, says so, and includes them free on request', async () => {
    const user = await product.register('owner-twice@example.com');
    userToken = user.token;
    await product.setCredits(user.id, user.token, 50);
    await openAs(user.token, '/dashboard');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();

    await generate(5);
    expect(await rows().count()).toBe(5);
    await expect.poll(() => product.balance(user.token)).toBe(45);

    await generate(5);
    expect(await rows().count()).toBe(5);
    // Which places the engine reaches first varies from run to run: how many were skipped is read, then checked.
    const notice = page.getByTestId('skipped-owned');
    await notice.waitFor();
    const skipped = Number((await notice.innerText()).match(/(\d+) business(?:es)? you already have (?:was|were) skipped/)?.[1]);
    expect(skipped).toBeGreaterThan(0);
    const second = (await product.api('GET', '/api/lead-searches?page_size=1', undefined, { authorization: `Bearer ${user.token}` })).body.searches[0];
    expect((await product.api('GET', `/api/lead-searches/${second.id}`, undefined, { authorization: `Bearer ${user.token}` })).body.stats.skipped_owned).toBe(skipped);
    await expect.poll(() => product.balance(user.token)).toBe(40);
    await shot(page, 'owned-skipped-notice');

    await notice.getByRole('button', { name: 'Include them (free)' }).click();
    // The click's search may not have shown its progress yet: wait for the new search to be settled.
    const latest = async () => (await product.api('GET', '/api/lead-searches?page_size=1', undefined, { authorization: `Bearer ${user.token}` })).body.searches[0];
    await expect.poll(async () => { const s = await latest(); return s.id !== second.id && s.status === 'completed'; }, { timeout: 60_000 }).toBe(true);
    await page.getByTestId('search-progress').waitFor({ state: 'detached', timeout: 60_000 });
    const third = await latest();
    const leads = (await product.api('GET', `/api/lead-searches/${third.id}`, undefined, { authorization: `Bearer ${user.token}` })).body.leads as { owned?: boolean }[];
    const owned = leads.filter((lead) => lead.owned).length;
    await expect.poll(() => page.locator('.owned-badge').count()).toBe(owned);
    expect(third.credits_used).toBe(5 - owned);
    await expect.poll(() => product.balance(user.token)).toBe(40 - (5 - owned));
    await shot(page, 'owned-included');
  }, 90_000);

  it('the footer links /opt-out; an email is removed only once its owner confirms on the mailed link\'s page, then blanked in the past search', async () => {
    const auth = { authorization: `Bearer ${userToken}` };
    const userLeads = async () => {
      const { searches } = (await product.api('GET', '/api/lead-searches', undefined, auth)).body;
      return (await Promise.all(searches.map(async (s: { id: string }) => (await product.api('GET', `/api/lead-searches/${s.id}`, undefined, auth)).body.leads))).flat() as { email: string }[];
    };
    // The area's first businesses carry no email (leads come in the order their places do): a wider
    // search of it, the owned ones included free, gives the past search an address to opt out.
    const wider = await product.api('POST', '/api/generate-leads', { industry: 'Dentists', location: 'London', quantity: 25, include_owned: true }, auth);
    expect(wider.status).toBe(200);
    const email = (await userLeads()).find((lead) => lead.email)!.email;
    expect(email).toContain('@');
    await page.goto(`${product.stack.url}/`);
    await page.locator('footer').getByRole('link', { name: 'Opt out' }).click();
    await page.waitForURL(`${product.stack.url}/opt-out`);
    await page.getByRole('heading', { name: 'Opt out of Leadforge', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Remove my details' }).click();
    await page.getByRole('alert').filter({ hasText: 'Please give an email address, a phone number or a website' }).waitFor();
    await page.getByLabel('Phone number').fill('030 1234');
    await page.getByRole('button', { name: 'Remove my details' }).click();
    await page.getByRole('alert').filter({ hasText: 'international format' }).waitFor();
    await page.getByLabel('Phone number').fill('');
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Reason (optional)').fill('Please stop');
    await shot(page, 'opt-out-page');
    await page.getByRole('button', { name: 'Remove my details' }).click();
    await page.getByRole('status').filter({ hasText: 'nothing is removed until it is opened' }).waitFor();
    await shot(page, 'opt-out-done');
    // Asked is not done.
    expect((await userLeads()).some((lead) => lead.email.toLowerCase() === email.toLowerCase())).toBe(true);
    // A website waits for an administrator (the next test decides it).
    expect((await product.api('POST', '/api/opt-out', { website: 'https://www.leave-us-out.org/contact' })).status).toBe(202);

    const mail = await waitForMail(path.join(product.dataDir, 'mail'), email.toLowerCase(), /^Confirm that Leadforge should leave out your email address$/, 30_000);
    const mailed = new URL(mail.links.find((l) => l.includes('/opt-out/confirm?token='))!);
    // The link names the product's PUBLIC_URL; this product listens on a port of its own.
    const link = `${product.stack.url}${mailed.pathname}${mailed.search}`;
    await page.goto(link);
    await page.getByRole('heading', { name: 'Confirm your opt-out', level: 1 }).waitFor();
    await shot(page, 'opt-out-confirm');
    await page.getByRole('button', { name: 'Confirm the opt-out' }).click();
    await page.getByRole('status').filter({ hasText: 'Your opt-out is confirmed' }).waitFor();
    await shot(page, 'opt-out-confirmed');
    expect((await userLeads()).some((lead) => lead.email.toLowerCase() === email.toLowerCase())).toBe(false);

    // The spent link says so on the page.
    await page.goto(link);
    await page.getByRole('button', { name: 'Confirm the opt-out' }).click();
    await page.getByRole('alert').filter({ hasText: 'This confirmation link is invalid or was used already' }).waitFor();
    await shot(page, 'opt-out-confirm-spent');
  }, 90_000);

  it('the admin tab "Opt-outs" shows what approving a website blanks before it is approved; the website covers its host only', async () => {
    const admin = (await product.api('POST', '/api/auth/login', { email: ADMIN_EMAIL, password: 'secret123' })).body.access_token as string;
    await openAs(admin, '/admin?tab=opt-outs');
    await page.getByRole('tab', { name: 'Opt-outs' }).waitFor();
    const table = page.getByTestId('opt-out-requests');
    const dialog = page.getByRole('alertdialog');
    const pending = table.locator('tr').filter({ hasText: 'leave-us-out.org' });
    await pending.getByText('pending').waitFor();
    await pending.getByText('covers leave-us-out.org and its subdomains').waitFor();
    await pending.getByRole('button', { name: 'Approve' }).click();
    await dialog.getByText('This approval blanks no leads in past searches: it covers leave-us-out.org and its subdomains.').waitFor();
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await page.locator('.admin-notices').getByRole('status').filter({ hasText: 'Opt-out approved' }).waitFor();
    await pending.getByText('approved').waitFor();
    await page.getByTestId('suppression-list').getByText('leave-us-out.org', { exact: true }).waitFor();

    // A website from the user's latest search (in any other searches too): the preview counts its leads there.
    const auth = { authorization: `Bearer ${userToken}` };
    const { searches } = (await product.api('GET', '/api/lead-searches', undefined, auth)).body as { searches: { id: string }[] };
    const leadsOf = await Promise.all(searches.map(async (s) => (await product.api('GET', `/api/lead-searches/${s.id}`, undefined, auth)).body.leads as { website: string; email: string; company: string }[]));
    const target = leadsOf[0].find((lead) => lead.website)!;
    const host = new URL(target.website).hostname;
    const onHost = (lead: { website: string; email: string }) => (lead.website && new URL(lead.website).hostname === host) || lead.email.endsWith(`@${host}`);
    const leads = leadsOf.flat().filter(onHost).length;
    const inSearches = leadsOf.filter((list) => list.some(onHost)).length;
    expect((await product.api('POST', '/api/opt-out', { website: `https://${host}/` })).status).toBe(202);
    await page.reload();
    const row = table.locator('tr').filter({ hasText: host });
    await row.getByRole('button', { name: 'Approve' }).click();
    const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
    await dialog.getByText(`This approval will blank ${plural(leads, 'lead', 'leads')} in 1 user's searches (${plural(inSearches, 'search', 'searches')}): it covers ${host} and its subdomains.`).waitFor();
    await shot(page, 'admin-opt-out-preview');
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await row.getByText('approved').waitFor();
    await page.getByTestId('suppression-list').getByText(host, { exact: true }).waitFor();
    await shot(page, 'admin-opt-outs');

    await page.getByLabel('Search opt-outs').fill('leave-us-out');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);

    // The user's results say why the business's contacts are gone.
    await openAs(userToken, '/dashboard');
    await page.getByRole('link', { name: 'Open Dentists in London' }).first().click();
    const blanked = rows().filter({ hasText: target.company });
    await expect.poll(() => blanked.getByText("Removed at the owner's request").count()).toBeGreaterThanOrEqual(2);
    expect(await blanked.getByRole('link').count()).toBe(0);
    await shot(page, 'results-removed-at-owners-request');
  }, 90_000);
});
