import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startLocalStack, type LocalStackProcess } from '../support/localStack.ts';
import { apiClient, bearer } from '../support/api.ts';
import { registerAdmin } from '../support/verifiedAdmin.ts';
import { chromiumAvailable, launchBrowser, screenshot, SHOTS_DIR } from '../support/browser.ts';
import { sidewaysOverflow } from '../support/accessibility.ts';

const ADMIN = { name: 'Refund Boss', email: 'refund.boss@example.com', password: 'secret123' };
const UMA = { name: 'Uma Unspent', email: 'uma@example.com', password: 'secret123' };
const QUINN = { name: 'Quinn Queued', email: 'quinn@example.com', password: 'secret123' };
const RITA = { name: 'Rita Declined', email: 'rita@example.com', password: 'secret123' };
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

describe.skipIf(!chromiumAvailable)('the 7-day refund in the browser, with the test checkout (needs Debian chromium at /usr/bin/chromium)', () => {
  let stack: LocalStackProcess;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const url = (route: string) => `${stack.url}${route}`;

  async function signedIn(who: { email: string; password: string }, viewport = DESKTOP): Promise<Page> {
    const context = await browser.newContext({ viewport });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (err) => console.error('page error:', err));
    await page.goto(url('/login'));
    await page.getByLabel('Email').fill(who.email);
    await page.getByLabel('Password').fill(who.password);
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.waitForURL(url('/dashboard'));
    return page;
  }
  /** What the screen shows with a dialog open (a full-page shot would misplace the fixed overlay). */
  const viewportShot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`) });

  beforeAll(async () => {
    [stack, browser] = await Promise.all([
      startLocalStack({ env: { ADMIN_EMAILS: ADMIN.email, PAYPAL_CLIENT_ID: '', PAYPAL_CLIENT_SECRET: '', AUTH_REGISTER_PER_IP_PER_HOUR: '1000' }, timeoutMs: 600_000 }),
      launchBrowser(),
    ]);
    const api = apiClient(stack.url);
    const admin = bearer((await registerAdmin(api, stack.dataDir, ADMIN)).token);
    for (const who of [UMA, QUINN, RITA]) {
      const reg = await api('POST', '/api/auth/register', who);
      const created = await api('POST', '/api/payments/create', { plan_id: who === RITA ? 'starter' : 'growth' }, bearer(reg.body.access_token));
      await api('POST', `/api/payments/test-checkout/${created.body.payment_id}/approve`);
      expect((await api('POST', '/api/payments/execute', { payment_id: created.body.payment_id }, bearer(reg.body.access_token))).status).toBe(200);
      // Quinn and Rita used part of their pack (an admin's adjustment stands in for searches): their refunds wait for an admin.
      if (who !== UMA) expect((await api('POST', '/api/admin/update-credits', { user_id: reg.body.user.id, credits_change: -60 }, admin)).status).toBe(200);
    }
  }, 900_000);
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await stack?.stop();
  });

  it('refunds an unspent pack at once from the Credits page, after a confirmation with a reason', async () => {
    const page = await signedIn(UMA);
    await page.goto(url('/credits'));
    const history = page.getByTestId('purchase-history');
    await history.getByRole('button', { name: 'Request a refund' }).click();
    const dialog = page.getByRole('dialog', { name: 'Request a refund?' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('GROWTH pack, $49.00');
    await dialog.getByRole('button', { name: 'Request refund' }).click();
    await dialog.getByText('Please tell us why, in at least 3 characters.').waitFor();
    await dialog.getByLabel('Why are you asking for a refund?').fill('I bought the wrong pack');
    await viewportShot(page, 'refunds-credits-request-dialog');
    await dialog.getByRole('button', { name: 'Request refund' }).click();
    await page.getByText('Refunded $49.00; 330 credits left your balance.').waitFor();
    await expect.poll(() => page.getByTestId('credits-balance').innerText()).toContain('10');
    await history.getByTestId('refund-status').getByText('Refunded $49.00.').waitFor();
    expect(await history.getByRole('button', { name: 'Request a refund' }).count()).toBe(0);
    await screenshot(page, 'refunds-credits-refunded');
  }, 120_000);

  it('queues a used pack on a phone: the buyer sees the request waiting', async () => {
    const page = await signedIn(QUINN, PHONE);
    await page.goto(url('/credits'));
    await page.getByRole('button', { name: 'Request a refund' }).click();
    const dialog = page.getByRole('dialog', { name: 'Request a refund?' });
    await dialog.getByLabel('Why are you asking for a refund?').fill('The leads in my city were too few');
    await viewportShot(page, 'refunds-credits-request-dialog-phone');
    await dialog.getByRole('button', { name: 'Request refund' }).click();
    await page.getByText(/an administrator reviews your request/).waitFor();
    await page.getByTestId('refund-status').getByText('Refund requested.').waitFor();
    expect(await sidewaysOverflow(page)).toBe(0);
    await screenshot(page, 'refunds-credits-requested-phone');

    const rita = await signedIn(RITA);
    await rita.goto(url('/credits'));
    await rita.getByRole('button', { name: 'Request a refund' }).click();
    await rita.getByLabel('Why are you asking for a refund?').fill('Not what I expected');
    await rita.getByRole('button', { name: 'Request refund' }).click();
    await rita.getByTestId('refund-status').getByText('Refund requested.').waitFor();
  }, 120_000);

  it('lets an admin approve in part and decline in the Refunds queue, saying which checkout ran', async () => {
    const page = await signedIn(ADMIN);
    await page.goto(url('/admin?tab=refunds'));
    const queue = page.getByTestId('refund-requests');
    await queue.getByText(QUINN.email).waitFor();
    expect(await queue.innerText()).toContain('Test checkout (no money moves)');
    expect(await page.getByRole('heading', { name: /Refund requests/ }).innerText()).toContain('2 open');
    await screenshot(page, 'refunds-admin-queue');

    const quinnRow = queue.getByRole('row').filter({ hasText: QUINN.email });
    await quinnRow.getByRole('button', { name: 'Partial...' }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve a partial refund?' });
    // 280 of the pack's 330 credits are still in the balance: $41.57 of $49 is suggested.
    expect(await dialog.getByLabel(/Amount to refund/).inputValue()).toBe('41.57');
    await dialog.getByLabel(/Amount to refund/).fill('60');
    await dialog.getByLabel('Reason').fill('Refund of the unused leads');
    await dialog.getByRole('button', { name: 'Refund' }).click();
    await dialog.getByText('Please enter an amount from $0.01 to $49.00.').waitFor();
    await dialog.getByLabel(/Amount to refund/).fill('24.50');
    await viewportShot(page, 'refunds-admin-partial-dialog');
    await dialog.getByRole('button', { name: 'Refund' }).click();
    await page.locator('.admin-notices').getByText('Refunded $24.50 through the test checkout (no money moved); 165 credits removed.').waitFor();

    const ritaRow = queue.getByRole('row').filter({ hasText: RITA.email });
    await ritaRow.getByRole('button', { name: 'Decline' }).click();
    const decline = page.getByRole('dialog', { name: 'Decline this refund request?' });
    await decline.getByLabel(/Reason/).fill('Most of the pack was used');
    await decline.getByRole('button', { name: 'Decline' }).click();
    await page.locator('.admin-notices').getByText(`Declined the refund request of ${RITA.name}.`).waitFor();
    await page.getByText('No refund requests are waiting.').waitFor();

    await page.getByLabel('Show').selectOption('all');
    await queue.getByText('Refund of the unused leads').waitFor();
    await screenshot(page, 'refunds-admin-all');

    const phone = await signedIn(ADMIN, PHONE);
    await phone.goto(url('/admin?tab=refunds'));
    await phone.getByLabel('Show').selectOption('all');
    await phone.getByTestId('refund-requests').getByText(QUINN.email).waitFor();
    expect(await sidewaysOverflow(phone)).toBe(0);
    await screenshot(phone, 'refunds-admin-all-phone');

    const quinn = await signedIn(QUINN);
    await quinn.goto(url('/credits'));
    await quinn.getByTestId('refund-status').getByText('Refunded $24.50.').waitFor();
  }, 180_000);
});
