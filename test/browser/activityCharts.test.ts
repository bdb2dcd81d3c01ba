import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { waitFor } from '@leadforge/testing';
import { axeFindings } from '../support/accessibility.ts';
import { bearer } from '../support/api.ts';
import { chromiumAvailable, launchBrowser, screenshot, SHOTS_DIR } from '../support/browser.ts';
import { startProductAround, type ProductAround } from '../support/productAround.ts';

const SIZES = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const today = () => new Date().toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

describe.skipIf(!chromiumAvailable)('the dashboard\'s and the admin overview\'s charts of the last 30 days (needs Debian chromium at /usr/bin/chromium)', () => {
  let product: ProductAround;
  let browser: Browser;
  const tokens = { newcomer: '', searcher: '' };

  beforeAll(async () => {
    [product, browser] = await Promise.all([startProductAround({ sites: 60 }), launchBrowser()]);
    tokens.newcomer = (await product.register('charts-newcomer@example.com')).token;
    const searcher = await product.register('charts-searcher@example.com');
    tokens.searcher = searcher.token;
    await waitFor(() => product.balance(searcher.token), { until: (n) => n > 0, what: 'the signup grant' });
    const created = await product.api('POST', '/api/payments/create', { plan_id: 'starter' }, bearer(searcher.token));
    expect(created.status).toBe(200);
    await product.api('POST', `/api/payments/test-checkout/${created.body.payment_id}/approve`);
    expect((await product.api('POST', '/api/payments/execute', { payment_id: created.body.payment_id }, bearer(searcher.token))).status).toBe(200);
    for (const quantity of [12, 6]) {
      const searched = await product.api('POST', '/api/generate-leads', { industry: 'Dentists', location: 'London', quantity }, bearer(searcher.token));
      expect(searched.status).toBe(200);
    }
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await product?.close();
  });

  async function open(token: string, size: (typeof SIZES)[number], path: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: size.width, height: size.height } });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(`${product.stack.url}/opt-out`);
    await page.evaluate((t) => localStorage.setItem('token', t), token);
    await page.goto(`${product.stack.url}${path}`);
    return page;
  }

  /** The part of the page a locator covers, from a full-page shot (an element shot taller than the window shows the sticky header over it). */
  async function shotOf(page: Page, locator: ReturnType<Page['locator']>, name: string): Promise<void> {
    await page.evaluate(() => window.scrollTo(0, 0));
    const box = (await locator.boundingBox())!;
    await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`), fullPage: true, clip: box });
  }

  async function seriousFindings(page: Page): Promise<string[]> {
    return (await axeFindings(page)).filter((f) => f.impact === 'critical' || f.impact === 'serious').map((f) => `${f.impact} ${f.id}: ${f.help} at ${f.targets.slice(0, 3).join(' | ')}`);
  }

  for (const size of SIZES) {
    it(`a new user's dashboard at ${size.name} size says there is nothing to chart yet, not a blank chart`, async () => {
      const page = await open(tokens.newcomer, size, '/dashboard');
      const card = page.getByTestId('activity-card');
      await card.getByRole('heading', { name: 'Your last 30 days' }).waitFor();
      await card.getByTestId('activity-empty').waitFor();
      expect(await card.locator('svg').count()).toBe(0);
      await screenshot(page, `activity-dashboard-empty-${size.name}`);
      await shotOf(page, card, `activity-card-empty-${size.name}`);
      expect(await seriousFindings(page)).toEqual([]);
      await page.context().close();
    }, 120_000);

    it(`a searcher's dashboard at ${size.name} size charts leads and credits per day, the contact shares, and the same figures as a table`, async () => {
      const page = await open(tokens.searcher, size, '/dashboard');
      const card = page.getByTestId('activity-card');
      await card.getByTestId('activity-charts').waitFor();
      const leads = card.getByTestId('chart-leads');
      expect(await leads.locator('figcaption strong').innerText()).toBe('18');
      expect(await card.getByTestId('chart-searches').locator('figcaption strong').innerText()).toBe('2');
      expect(await card.getByTestId('chart-credits-used').locator('figcaption strong').innerText()).toBe('18');
      expect(await card.getByTestId('chart-credits-bought').locator('figcaption strong').innerText()).toBe('100');
      // What a screen reader hears for a chart: the total and the busiest day.
      expect(await leads.getByRole('img').getAttribute('aria-label')).toBe(`Leads delivered: 18 over the last 30 days, on 1 day; the most on ${today()} (18)`);
      expect(await card.getByRole('heading', { name: 'Of the 18 leads delivered' }).count()).toBe(1);
      expect(await card.getByTestId('share-email').innerText()).toMatch(/With email\s+\d+% \(\d+ of 18\)/);
      expect(await card.getByTestId('share-phone').innerText()).toMatch(/With phone\s+\d+% \(\d+ of 18\)/);
      expect(await card.getByTestId('share-verified').innerText()).toMatch(/Deliverable email\s+\d+% \(\d+ of 18\)/);

      const table = card.getByTestId('activity-table');
      await table.getByText('Your last 30 days as a table').click();
      const row = table.locator('tbody tr');
      expect(await row.count()).toBe(1);
      expect(await row.locator('th').innerText()).toBe(today());
      const cells = await row.locator('td').allInnerTexts();
      expect([cells[0], cells[1], cells[5], cells[6]]).toEqual(['2', '18', '18', '100']);
      // Opening the table scrolled the page: a full-page shot from there draws the sticky header mid-page.
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `activity-dashboard-${size.name}`);
      await shotOf(page, card, `activity-card-${size.name}`);
      expect(await seriousFindings(page)).toEqual([]);
      await page.context().close();
    }, 120_000);

    it(`the admin overview at ${size.name} size charts signups, revenue, searches, leads and credits used, with the table as their text alternative`, async () => {
      const page = await open(product.admin.token, size, '/admin?tab=overview');
      const charts = page.getByTestId('admin-charts');
      await charts.waitFor();
      expect(await charts.locator('figcaption span').allInnerTexts()).toEqual(['Signups', 'Revenue', 'Searches', 'Leads generated', 'Credits used']);
      await expect.poll(async () => charts.locator('figure').nth(2).locator('figcaption strong').innerText(), { timeout: 30_000 }).toBe('2');
      expect(await charts.locator('figure').nth(4).locator('figcaption strong').innerText()).toBe('18');
      const table = page.getByTestId('admin-daily-table');
      await table.getByText('The last 30 days as a table').click();
      const row = table.locator('tbody tr').first();
      expect(await row.locator('th').innerText()).toBe(today());
      // The admin, the newcomer and the searcher signed up today; test-checkout money is not revenue.
      const cells = await row.locator('td').allInnerTexts();
      expect([cells[0], cells[2], cells[3], cells[4]]).toEqual(['3', '2', '18', '18']);
      // Opening the table scrolled the page: a full-page shot from there draws the sticky header mid-page.
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `activity-admin-overview-${size.name}`);
      await shotOf(page, page.getByRole('region', { name: 'Last 30 days', exact: true }), `activity-admin-charts-${size.name}`);
      expect(await seriousFindings(page)).toEqual([]);
      await page.context().close();
    }, 120_000);
  }
});
