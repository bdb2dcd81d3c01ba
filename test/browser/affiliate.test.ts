import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startLocalStack, type LocalStackProcess } from '../support/localStack.ts';
import { apiClient, bearer } from '../support/api.ts';
import { chromiumAvailable, launchBrowser, screenshot } from '../support/browser.ts';
import { sidewaysOverflow } from '../support/accessibility.ts';

/** A full-page shot from the top, so the sticky header sits where a person sees it. */
async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

describe.skipIf(!chromiumAvailable)('the affiliate page in the browser (needs Debian chromium at /usr/bin/chromium)', () => {
  let stack: LocalStackProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let api: ReturnType<typeof apiClient>;
  let ada: { token: string };
  const url = (path: string) => `${stack.url}${path}`;

  /** Signs the page in as `token`, as the login page would have left it. */
  async function signIn(target: Page, token: string) {
    await target.goto(url('/'));
    await target.evaluate((t) => localStorage.setItem('token', t), token);
  }

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startLocalStack({ timeoutMs: 600_000 }), launchBrowser()]);
    api = apiClient(stack.url);
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
    page = await context.newPage();
    // Ada signed up elsewhere, not from the visitor's address (the browser's, 127.0.0.1): one address registering twice in a day is one person.
    const reg = await apiClient(stack.url, { from: '127.0.0.9' })('POST', '/api/auth/register', { name: 'Ada Affiliate', email: 'ada.affiliate@example.com', password: 'secret123' });
    ada = { token: reg.body.access_token };
  }, 900_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('shows the dashboard, benefits, commission table, application form and FAQ', async () => {
    await signIn(page, ada.token);
    await page.goto(url('/affiliate'));
    await page.getByRole('heading', { name: 'Your affiliate dashboard' }).waitFor();
    const stats = (await api('GET', '/api/affiliate/stats', undefined, bearer(ada.token))).body;
    expect(await page.getByTestId('total-referrals').textContent()).toBe('0');
    expect(await page.getByTestId('total-commissions').textContent()).toBe('$0.00');
    expect(await page.getByTestId('referral-code').textContent()).toBe(stats.referral_code);
    expect(await page.getByLabel('Your referral link').inputValue()).toBe(stats.referral_link);
    const table = page.locator('.commission-table');
    for (const amount of ['$1.90', '$4.90', '$9.90']) await table.getByText(amount, { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Why join' }).waitFor();
    await page.getByRole('heading', { name: 'Apply to the program' }).waitFor();
    await page.getByRole('heading', { name: 'Frequently asked questions' }).waitFor();
    await page.getByText('Next payout:').waitFor();
    await shot(page, 'affiliate-page');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'affiliate-page-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('copies the referral link and says "Link copied" for 2 seconds', async () => {
    const link = await page.getByLabel('Your referral link').inputValue();
    await page.getByRole('button', { name: 'Copy Link' }).click();
    const notice = page.getByText('Link copied');
    await notice.waitFor();
    const shownAt = Date.now();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await shot(page, 'affiliate-link-copied');
    // It goes away, and not before its time; how promptly on a busy machine is no test's business.
    await notice.waitFor({ state: 'detached', timeout: 30_000 });
    expect(Date.now() - shownAt).toBeGreaterThan(1500);
  });

  it('attributes a visitor who lands on the link and registers, and shows the commission of their Growth purchase', async () => {
    const link = await page.getByLabel('Your referral link').inputValue();
    const visitorContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const visitor = await visitorContext.newPage();
    try {
      await visitor.goto(link.replace(/^https?:\/\/[^/]+/, stack.url));
      await expect.poll(async () => (await visitorContext.cookies()).find((c) => c.name === 'lf_ref')?.value, { timeout: 5000 }).toBeTruthy();
      const cookie = (await visitorContext.cookies()).find((c) => c.name === 'lf_ref')!;
      const days = (cookie.expires * 1000 - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(59.9);
      expect(days).toBeLessThanOrEqual(60);
      expect(cookie.sameSite).toBe('Lax');

      await visitor.goto(url('/register'));
      await visitor.getByLabel('Full name').fill('Bob Visitor');
      await visitor.getByLabel('Email').fill('bob.visitor@example.com');
      await visitor.getByLabel('Password', { exact: true }).fill('secret123');
      await visitor.getByLabel(/confirm password/i).fill('secret123');
      await visitor.getByRole('button', { name: /create account/i }).click();
      await visitor.waitForURL(url('/dashboard'));
      const bobToken = await visitor.evaluate(() => localStorage.getItem('token'));

      await expect.poll(async () => (await api('GET', '/api/affiliate/stats', undefined, bearer(ada.token))).body.total_referrals, { timeout: 10_000 }).toBe(1);

      // Bob buys Growth through billing's test checkout (the calls the credits page makes).
      const created = await api('POST', '/api/payments/create', { plan_id: 'growth' }, bearer(bobToken!));
      expect(created.status).toBe(200);
      const approved = await api('POST', `/api/payments/test-checkout/${created.body.payment_id}/approve`, {});
      await api('POST', '/api/payments/execute', { payment_id: created.body.payment_id, payer_id: approved.body.payer_id }, bearer(bobToken!));
      await expect.poll(async () => (await api('GET', '/api/affiliate/stats', undefined, bearer(ada.token))).body.total_commissions, { timeout: 10_000 }).toBe(4.9);

      await page.reload();
      await page.getByTestId('total-referrals').filter({ hasText: '1' }).waitFor();
      expect(await page.getByTestId('total-commissions').textContent()).toBe('$4.90');
      await page.locator('.commissions-table').getByText('Pending', { exact: true }).waitFor();
      await page.locator('.commissions-table').getByText(/^pending until /).waitFor();
      expect(await page.getByTestId('commissions-pending').textContent()).toBe('$4.90');
      await shot(page, 'affiliate-dashboard-with-referral');
    } finally {
      await visitorContext.close();
    }
  });

  it('shows the fallback when the application cannot reach the server', async () => {
    await page.route('**/api/affiliate/apply', (route) => route.abort('connectionrefused'));
    const form = page.locator('form', { has: page.getByRole('button', { name: 'Submit Application' }) });
    await form.getByLabel('Name *').fill('Ada Affiliate');
    await form.getByLabel('Email *').fill('ada@example.com');
    await page.getByRole('button', { name: 'Submit Application' }).click();
    await form.getByRole('alert').filter({ hasText: 'Application failed. Please try again.' }).waitFor();
    await page.unroute('**/api/affiliate/apply');
    await form.getByLabel('Name *').fill('');
    await form.getByLabel('Email *').fill('');
  });

  it('says applying is optional, validates the form, shows the server\'s refusal, then shows the application\'s status instead of the form', async () => {
    expect(await page.getByTestId('no-application-needed').textContent()).toContain('No application needed');
    expect(await page.getByTestId('payout-email').textContent()).toContain('ada.affiliate@example.com');
    const form = page.locator('form', { has: page.getByRole('button', { name: 'Submit Application' }) });
    await page.getByRole('button', { name: 'Submit Application' }).click();
    await form.getByRole('alert').filter({ hasText: 'Please fill in all required fields' }).waitFor();

    await form.getByLabel('Name *').fill('Ada Affiliate');
    await form.getByLabel('Email *').fill('ada.paypal@example.com');
    await form.getByLabel('Website').fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Submit Application' }).click();
    await form.getByRole('alert').filter({ hasText: 'Please enter a valid website address' }).waitFor();
    await shot(page, 'affiliate-application-error');

    await form.getByLabel('Website').fill('ada-blog.example.com');
    await form.getByLabel('Message').fill('I write about B2B sales.');
    await page.getByRole('button', { name: 'Submit Application' }).click();
    const status = page.getByTestId('application-status');
    await status.getByRole('status').filter({ hasText: 'Thank you for applying, Ada Affiliate!' }).waitFor();
    expect(await status.textContent()).toContain('Application received');
    expect(await status.textContent()).toContain('ada.paypal@example.com');
    expect(await page.getByRole('button', { name: 'Submit Application' }).count()).toBe(0);
    // Until an address is set, payouts go to the application's email, and the page says so.
    await page.getByTestId('payout-email').filter({ hasText: 'ada.paypal@example.com (the email of your application' }).waitFor();
    await shot(page, 'affiliate-application-sent');
    await page.reload();
    await status.getByText('Application received').waitFor();
    expect(await page.getByRole('button', { name: 'Submit Application' }).count()).toBe(0);
  });

  it('sets the PayPal payout address explicitly, refusing one that is not an email address', async () => {
    const field = page.getByLabel('PayPal email for payouts');
    await field.fill('not-an-address');
    await page.getByRole('button', { name: 'Save PayPal email' }).click();
    await page.locator('.payout-email-card').getByRole('alert').filter({ hasText: 'Please enter a valid email address' }).waitFor();
    await field.fill('ada.payouts@example.com');
    await page.getByRole('button', { name: 'Save PayPal email' }).click();
    await page.locator('.payout-email-card').getByRole('status').filter({ hasText: 'Payouts now go to ada.payouts@example.com.' }).waitFor();
    await page.getByTestId('payout-email').filter({ hasText: 'ada.payouts@example.com (the address you set)' }).waitFor();
    expect((await api('GET', '/api/affiliate/stats', undefined, bearer(ada.token))).body).toMatchObject({ payout_email: 'ada.payouts@example.com', payout_email_source: 'set' });
    await shot(page, 'affiliate-payout-email-set');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await sidewaysOverflow(page)).toBe(0);
    await shot(page, 'affiliate-page-applied-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
