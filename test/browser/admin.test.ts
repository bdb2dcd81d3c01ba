import http from 'node:http';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startLocalStack, type LocalStackProcess } from '../support/localStack.ts';
import { apiClient, bearer } from '../support/api.ts';
import { chromiumAvailable, launchBrowser, screenshot, SHOTS_DIR } from '../support/browser.ts';
import { sidewaysOverflow } from '../support/accessibility.ts';
import { registerAdmin } from '../support/verifiedAdmin.ts';

const ADMIN = { name: 'Boss Admin', email: 'boss@example.com', password: 'secret123' };
const PLAIN = { name: 'Plain Pat', email: 'pat@example.com', password: 'secret123' };
const EXTRA_USERS = 27;

describe.skipIf(!chromiumAvailable)('the Enhanced Admin Panel in the browser (needs Debian chromium at /usr/bin/chromium)', () => {
  let stack: LocalStackProcess;
  let browser: Browser;
  let page: Page;
  let target: http.Server;
  let scrapeUrl = '';
  let adminToken = '';

  const url = (path: string) => `${stack.url}${path}`;
  const banner = (kind: 'alert' | 'status', text: string | RegExp) => page.locator('.admin-notices').getByRole(kind).filter({ hasText: text });
  const tab = (name: string) => page.getByRole('tab', { name });
  /** What the screen shows with a dialog open (a full-page shot would misplace the fixed overlay). */
  const viewportShot = (name: string) => page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`) });

  async function logIn(who: { email: string; password: string }) {
    await page.goto(url('/login'));
    await page.getByLabel('Email').fill(who.email);
    await page.getByLabel('Password').fill(who.password);
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.waitForURL(url('/dashboard'));
  }

  beforeAll(async () => {
    target = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ origin: '203.0.113.7', headers: { 'User-Agent': 'Leadforge test' } })));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    scrapeUrl = `http://127.0.0.1:${(target.address() as { port: number }).port}/ip`;
    [stack, browser] = await Promise.all([
      startLocalStack({ env: { ADMIN_EMAILS: ADMIN.email, SCRAPER_ALLOW_PRIVATE_NETWORKS: 'true', AUTH_REGISTER_PER_IP_PER_HOUR: '1000' }, timeoutMs: 600_000 }),
      launchBrowser(),
    ]);
    const api = apiClient(stack.url);
    adminToken = (await registerAdmin(api, stack.dataDir, ADMIN)).token;
    await api('POST', '/api/auth/register', PLAIN);
    for (let i = 1; i <= EXTRA_USERS; i++) {
      await api('POST', '/api/auth/register', { name: `Customer ${String(i).padStart(2, '0')}`, email: `customer${i}@shop.example`, password: 'secret123' });
    }
    // Two purchases through billing's built-in test checkout, so the overview and the log have payments.
    for (const plan of ['growth', 'starter']) {
      const buyer = (await api('POST', '/api/auth/login', { email: PLAIN.email, password: PLAIN.password })).body.access_token;
      const created = await api('POST', '/api/payments/create', { plan_id: plan }, bearer(buyer));
      await api('POST', `/api/payments/test-checkout/${created.body.payment_id}/approve`);
      await api('POST', '/api/payments/execute', { payment_id: created.body.payment_id }, bearer(buyer));
    }
    await api('POST', '/api/contact', { name: 'Vera Visitor', email: 'vera@example.com', message: 'Do you have leads for bakeries in Porto?\nThanks!', recaptcha_token: `local-test.${'b'.repeat(32)}` });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 900_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    target?.close();
  });

  // A test that fails (a timeout above all, which says only where it waited) says what the panel showed
  // then, and what the product logged (warnings and errors), with a screenshot.
  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail' || !page) return;
    const banners = await page.locator('.admin-notices').innerText({ timeout: 2000 }).catch(() => '(none)');
    const shot = await screenshot(page, `failed-admin-${task.name.replace(/\W+/g, '-').slice(0, 60)}`).catch(() => '(no screenshot)');
    console.error(`"${task.name}" failed at ${page.url()}; the panel's banners: ${banners || '(none)'}; ${shot}\nthe product's last lines:\n${stack.output().split('\n').slice(-30).join('\n')}`);
  });

  it('sends a non-admin away from /admin to /dashboard', async () => {
    await logIn(PLAIN);
    await page.goto(url('/admin'));
    await page.waitForURL(url('/dashboard'));
    await page.evaluate(() => localStorage.removeItem('token'));
  });

  it('shows Loading admin data... first, then the Overview tab with the spec cards and the charts', async () => {
    await logIn(ADMIN);
    // Hold the first stats answer so the loading state can be seen.
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    await page.route((u) => u.pathname === '/api/admin/enhanced-stats' && u.searchParams.get('include') === 'stats', async (route) => { await held; await route.continue(); }, { times: 1 });
    await page.goto(url('/admin'));
    await page.getByRole('heading', { name: 'Enhanced Admin Panel' }).waitFor();
    await page.getByText('Complete system management and analytics').waitFor();
    await page.getByText('Loading admin data...').waitFor();
    await screenshot(page, 'admin-loading');
    release();
    await expect.poll(() => tab('Overview').getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => page.getByTestId('stat-users').innerText()).toContain(`${EXTRA_USERS + 2}`);
    expect(await page.getByTestId('stat-users').innerText()).toContain('1 admin');
    expect(await page.getByTestId('stat-revenue').innerText()).toMatch(/\$\d[\d,]*\.\d{2}/);
    expect(await page.getByTestId('stat-leads').innerText()).toMatch(/scrapes?/);
    await page.getByTestId('stat-credits').waitFor();
    expect(await page.getByTestId('recent-users').locator('li').count()).toBe(5);
    const purchases = await page.getByTestId('recent-purchases').innerText();
    expect(purchases).toMatch(/STARTER[\s\S]*GROWTH/);
    expect(purchases).toContain('$49.00');
    expect(purchases).toContain('330 credits');
    // Both went through the built-in test checkout: no money moved, so no revenue; the test money is shown apart.
    expect(await page.getByTestId('stat-revenue').innerText()).toContain('$0.00');
    expect(await page.getByTestId('stat-test-money').innerText()).toMatch(/\$68\.00[\s\S]*2 test purchases, no money moved/);
    expect(await page.getByTestId('recent-purchases').getByText('test', { exact: true }).count()).toBe(2);
    expect(await page.getByRole('img', { name: /Signups: \d+ over the last 30 days/ }).count()).toBe(1);
    await page.getByRole('img', { name: /Revenue: .* over the last 30 days/ }).waitFor();
    await page.getByRole('img', { name: /Leads generated: .* over the last 30 days/ }).waitFor();
    await screenshot(page, 'admin-overview');
  }, 60_000);

  it('searches, filters and pages users on the server; the admin cannot demote or deactivate themselves', async () => {
    await tab('User Management').click();
    await page.getByRole('heading', { name: `Users (${EXTRA_USERS + 2})` }).waitFor();
    expect(await page.locator('.admin-table tbody tr').count()).toBe(25);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2 of 2').waitFor();
    await expect.poll(() => page.locator('.admin-table tbody tr').count()).toBe(EXTRA_USERS + 2 - 25);
    await page.getByLabel('Search users').fill('CUSTOMER 1');
    await page.getByRole('heading', { name: 'Users (10)' }).waitFor();
    await page.getByLabel('Search users').fill('shop.example');
    await page.getByRole('heading', { name: `Users (${EXTRA_USERS})` }).waitFor();
    await page.getByLabel('Search users').fill('');
    await page.getByLabel('Role', { exact: true }).selectOption('admin');
    await page.getByRole('heading', { name: 'Users (1)' }).waitFor();
    const own = page.getByTestId(`user-row-${ADMIN.email}`);
    expect(await own.getByRole('button', { name: 'Demote' }).isDisabled()).toBe(true);
    expect(await own.getByRole('button', { name: 'Deactivate' }).isDisabled()).toBe(true);
    await screenshot(page, 'admin-users-admins');
    await page.getByLabel('Role', { exact: true }).selectOption('all');
    await page.getByRole('heading', { name: `Users (${EXTRA_USERS + 2})` }).waitFor();
    await screenshot(page, 'admin-users');
  });

  it('promotes, demotes, deactivates after a confirmation and reactivates a user, with the server message as the banner', async () => {
    await page.getByLabel('Search users').fill('pat@example.com');
    await page.getByRole('heading', { name: 'Users (1)' }).waitFor();
    const row = page.getByTestId(`user-row-${PLAIN.email}`);
    await row.getByRole('button', { name: 'Promote' }).click();
    await banner('status', 'Plain Pat is now an admin.').waitFor();
    await row.getByRole('button', { name: 'Demote' }).click();
    await banner('status', 'Plain Pat is now a regular user.').waitFor();

    await row.getByRole('button', { name: 'Deactivate' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Deactivate this user?' });
    await dialog.waitFor();
    await viewportShot('admin-deactivate-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await row.getByText('Inactive').count()).toBe(0);
    await row.getByRole('button', { name: 'Deactivate' }).click();
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await banner('status', 'Plain Pat has been deactivated.').waitFor();
    await row.getByText('Inactive').waitFor();
    await screenshot(page, 'admin-user-deactivated');
    await row.getByRole('button', { name: 'Activate' }).click();
    await banner('status', 'Plain Pat has been reactivated.').waitFor();
  });

  it('adds and removes 10 credits from the table (-10 disabled under 10 credits)', async () => {
    const row = page.getByTestId(`user-row-${PLAIN.email}`);
    const credits = async () => Number((await row.locator('td').nth(2).innerText()).replace(/,/g, ''));
    const before = await credits();
    expect(await row.getByRole('button', { name: '-10' }).isDisabled()).toBe(before < 10);
    await row.getByRole('button', { name: '+10' }).click();
    await banner('status', /^Added 10 credits to Plain Pat/).waitFor();
    await expect.poll(credits).toBe(before + 10);
    await row.getByRole('button', { name: '-10' }).click();
    await banner('status', /^Removed 10 credits from Plain Pat/).waitFor();
    await expect.poll(credits).toBe(before);
  });

  it('opens one user from the Users tab: account, searches, purchases, refunds, credit ledger and API keys', async () => {
    const pat = (await apiClient(stack.url)('POST', '/api/auth/login', { email: PLAIN.email, password: PLAIN.password })).body.access_token;
    await apiClient(stack.url)('POST', '/api/api-keys', { name: 'Pat\'s spreadsheet' }, bearer(pat));
    await page.getByTestId(`user-row-${PLAIN.email}`).getByRole('link', { name: PLAIN.name }).click();
    await page.getByRole('heading', { name: PLAIN.name, level: 2 }).waitFor();
    expect(new URL(page.url()).searchParams.get('tab')).toBe('users');
    const part = (id: string) => page.getByTestId(`user-detail-${id}`);
    await part('api-keys').getByText('Pat\'s spreadsheet').waitFor();
    expect(await part('searches').innerText()).toContain('No finished searches yet.');
    expect(await part('refunds').innerText()).toContain('No refunds.');
    const purchases = await part('purchases').innerText();
    expect(purchases).toMatch(/GROWTH[\s\S]*\$49\.00/);
    expect(purchases).toContain('STARTER');
    // The +10 and -10 of the test before, newest first, after the purchases' grants.
    const ledger = await part('ledger').locator('li').allInnerTexts();
    expect(ledger[0]).toMatch(/^-10/);
    expect(ledger[1]).toMatch(/^\+10/);
    expect(ledger.some((line) => line.includes('+330'))).toBe(true);
    await screenshot(page, 'admin-user-detail');
    // It survives a reload (the user is in the URL), and reads on a phone without sideways scrolling.
    await page.reload();
    await part('api-keys').getByText('Pat\'s spreadsheet').waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await sidewaysOverflow(page)).toBe(0);
    await screenshot(page, 'admin-user-detail-phone');
    await page.getByRole('button', { name: '← All users' }).click();
    await page.getByRole('heading', { name: /^Users \(\d+\)$/ }).waitFor();
    expect(await sidewaysOverflow(page)).toBe(0);
    await screenshot(page, 'admin-users-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('shows the proxy tab: statistics, usage, quota, reset, payment provider and the scraper test', async () => {
    await tab('Decodo Stats').click();
    await page.getByRole('heading', { name: 'Decodo Proxy Statistics' }).waitFor();
    await page.getByRole('heading', { name: 'Usage Statistics' }).waitFor();
    await page.getByRole('heading', { name: 'Scraper Test' }).waitFor();
    await page.getByRole('button', { name: 'Refresh Stats' }).waitFor();
    // No DECODO_PROXY_URL here: nothing was tested, so the card says so instead of a red "Failed".
    const test = page.getByTestId('proxy-connection-test');
    await expect.poll(() => test.innerText()).toBe('Not configured');
    expect(await test.getAttribute('class')).not.toContain('admin-bad');

    await page.getByRole('button', { name: 'Update Quota' }).click();
    await banner('alert', 'Please enter a valid quota amount').waitFor();
    await page.getByLabel('Set remaining quota (requests)').fill('-5');
    await page.getByRole('button', { name: 'Update Quota' }).click();
    await banner('alert', 'Please enter a valid quota amount').waitFor();

    await page.getByRole('button', { name: 'Scrape URL' }).click();
    await banner('alert', 'Please enter a URL to scrape').waitFor();
    await page.getByRole('button', { name: 'JSON test' }).click();
    expect(await page.getByLabel('URL to scrape').inputValue()).toBe('https://httpbin.org/json');
    await page.getByRole('button', { name: 'User-agent test' }).click();
    expect(await page.getByLabel('URL to scrape').inputValue()).toBe('https://httpbin.org/user-agent');
    await page.getByRole('button', { name: 'IP check' }).click();
    expect(await page.getByLabel('URL to scrape').inputValue()).toBe('https://httpbin.org/ip');

    await page.getByLabel('Set remaining quota (requests)').fill('5000');
    await page.getByRole('button', { name: 'Update Quota' }).click();
    await banner('status', /./).waitFor();
    await expect.poll(() => page.getByTestId('usage-metrics').innerText()).toContain('5,000');

    await page.getByLabel('URL to scrape').fill(scrapeUrl);
    await page.getByRole('button', { name: 'Scrape URL' }).click();
    await banner('status', 'URL scraped successfully!').waitFor();
    const result = page.getByTestId('scrape-result');
    await result.getByText(scrapeUrl).waitFor();
    expect(await result.locator('pre').innerText()).toContain('"origin": "203.0.113.7"');
    await screenshot(page, 'admin-proxy');

    await page.getByRole('button', { name: 'Reset Stats' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('Are you sure you want to reset all Decodo usage statistics? This action cannot be undone.').waitFor();
    await viewportShot('admin-reset-confirm');
    await dialog.getByRole('button', { name: 'Reset statistics' }).click();
    await banner('status', /./).waitFor();
    await expect.poll(() => page.getByTestId('usage-metrics').innerText()).toContain('10,000');
  });

  it('switches the payment provider mode only after a confirmation', async () => {
    const block = page.getByTestId('payment-provider');
    // No PayPal credentials here: the mode named is the one that runs, whatever is chosen for PayPal.
    expect(await block.getByTestId('payment-mode').textContent()).toBe('Test checkout');
    const toggle = block.getByRole('switch');
    const label = await toggle.innerText();
    await toggle.click();
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    await viewportShot('admin-paypal-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await toggle.innerText()).toBe(label);
    await toggle.click();
    await dialog.getByRole('button', { name: /^Switch to/ }).click();
    await banner('status', /./).waitFor();
    await expect.poll(() => toggle.innerText()).not.toBe(label);
    expect(await block.getByTestId('payment-mode').textContent()).toBe('Test checkout');
  });

  it('lists activity newest first, including the admin actions just taken', async () => {
    await tab('Activity Logs').click();
    await page.getByRole('heading', { name: /Activity Logs/ }).waitFor();
    await page.getByLabel('Show').selectOption('admin_action');
    const list = page.getByTestId('activity-list');
    await expect.poll(() => list.locator('li').first().innerText()).toMatch(/Admin action/);
    expect(await list.innerText()).toContain('user.deactivate on Plain Pat: ok (Plain Pat has been deactivated.)');
    await screenshot(page, 'admin-activity-admin-actions');
    await page.getByLabel('Show').selectOption('');
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
    await screenshot(page, 'admin-activity');
  });

  it('shows contact form submissions', async () => {
    await tab('Contact Forms').click();
    await page.getByRole('heading', { name: /Contact Form Submissions/ }).waitFor();
    const list = page.getByTestId('contact-list');
    await list.getByText('Vera Visitor').waitFor();
    await list.getByRole('link', { name: 'vera@example.com' }).waitFor();
    expect(await list.innerText()).toContain('Do you have leads for bakeries in Porto?');
    await screenshot(page, 'admin-contacts');
  });

  it('validates and applies a credit change in the Credit Manager', async () => {
    await tab('Credit Manager').click();
    await page.getByRole('button', { name: 'Update Credits' }).click();
    await banner('alert', 'Please select a user and enter credit amount').waitFor();
    await page.getByLabel('Find user').fill('customer2@');
    await expect.poll(() => page.getByLabel('User', { exact: true }).locator('option').count()).toBe(2);
    await page.getByLabel('User', { exact: true }).selectOption({ index: 1 });
    await page.getByRole('button', { name: 'Update Credits' }).click();
    await banner('alert', 'Please select a user and enter credit amount').waitFor();
    await page.getByLabel('Credits (+/-)').fill('25');
    await page.getByRole('button', { name: 'Update Credits' }).click();
    await banner('status', 'Added 25 credits to Customer 02. New balance: 35.').waitFor();
    await expect.poll(() => page.getByLabel('User', { exact: true }).locator('option:checked').innerText()).toContain('35 credits');
    await screenshot(page, 'admin-credit-manager');
  });

  it('lists affiliate applications and runs the month\'s payout after a confirmation', async () => {
    const api = apiClient(stack.url);
    const pat = (await api('POST', '/api/auth/login', { email: PLAIN.email, password: PLAIN.password })).body.access_token;
    expect((await api('POST', '/api/affiliate/apply', { name: 'Pat Partner', email: 'pat.paypal@example.com', website: 'pat-blog.example.com', message: 'I run a newsletter for agencies.' }, bearer(pat))).status).toBe(201);
    await tab('Affiliates').click();
    const applications = page.getByTestId('application-list');
    await applications.getByText('Pat Partner').waitFor();
    expect(await applications.innerText()).toContain('I run a newsletter for agencies.');
    expect(await applications.innerText()).toContain('https://pat-blog.example.com/');
    await page.getByText('No payouts yet').waitFor();
    const period = new Date().toISOString().slice(0, 7);
    await page.getByRole('button', { name: `Run payout for ${period}` }).click();
    const dialog = page.getByRole('alertdialog', { name: `Run the payout for ${period}?` });
    await dialog.waitFor();
    await viewportShot('admin-payout-confirm');
    await dialog.getByRole('button', { name: 'Run payout' }).click();
    await banner('status', `Nobody is due a payout for ${period}.`).waitFor();
    await page.getByTestId('payout-list').getByText(period).waitFor();
    expect(await page.getByTestId('payout-list').innerText()).toContain('Nobody due');
    await screenshot(page, 'admin-affiliates');
  });

  it('loses the panel at once when the admin is demoted by another admin', async () => {
    const api = apiClient(stack.url);
    const other = await api('POST', '/api/auth/register', { name: 'Second Admin', email: 'second@example.com', password: 'secret123' });
    await api('POST', '/api/admin/user-action', { user_id: other.body.user.id, action: 'promote' }, bearer(adminToken));
    const relogged = await api('POST', '/api/auth/login', { email: 'second@example.com', password: 'secret123' });
    const me = await api('GET', '/api/auth/me', undefined, bearer(adminToken));
    const demote = await api('POST', '/api/admin/user-action', { user_id: me.body.id, action: 'demote' }, bearer(relogged.body.access_token));
    expect(demote.status).toBe(200);
    await page.reload();
    await page.waitForURL(url('/dashboard'));
  });
});
