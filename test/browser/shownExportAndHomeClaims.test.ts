import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { parse } from 'csv-parse/sync';
import { matchesFilter, NO_FILTER, type Lead, type PublicLeadStats } from '@leadforge/contracts';
import { SERVICE_DEFINITIONS } from '@leadforge/stack';
import path from 'node:path';
import { chromiumAvailable, downloadedBytes, launchBrowser, screenshot, SHOTS_DIR } from '../support/browser.ts';
import { bearer } from '../support/api.ts';
import { startProductAround, type ProductAround } from '../support/productAround.ts';

const missing = ['billing', 'scraper', 'leads'].filter((name) => !SERVICE_DEFINITIONS.some((def) => def.name === name));
const why = [
  ...(!chromiumAvailable ? ['needs Debian chromium at /usr/bin/chromium'] : []),
  ...(missing.length ? [`waiting: ${missing.join(', ')} not yet in stack/src/services.ts`] : []),
];

const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

describe.skipIf(why.length > 0)(`the product keeps its word: exports of what is shown, claims backed by figures${why.length ? ` (${why.join('; ')})` : ''}`, () => {
  let product: ProductAround;
  let browser: Browser;
  let user: { id: string; token: string };
  let searchId = '';
  let leads: Lead[] = [];
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [product, browser] = await Promise.all([startProductAround({ sites: 60 }), launchBrowser()]);
    user = await product.register('browser-promises@example.com');
    await product.setCredits(user.id, user.token, 60);
    const run = await product.api('POST', '/api/generate-leads', { industry: 'dentist', location: 'Lindenfeld', quantity: 20 }, bearer(user.token));
    expect(run.status).toBe(200);
    leads = run.body.leads;
    searchId = (await product.api('GET', '/api/lead-searches?q=dentist', undefined, bearer(user.token))).body.searches[0].id;
  }, 480_000);
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await product?.close();
  });

  const pageAt = async (viewport: { width: number; height: number }, signedIn: boolean): Promise<Page> => {
    const context = await browser.newContext({ viewport, acceptDownloads: true });
    contexts.push(context);
    const page = await context.newPage();
    if (signedIn) {
      await page.goto(`${product.stack.url}/login`);
      await page.evaluate((token) => localStorage.setItem('token', token), user.token);
    }
    return page;
  };

  for (const { name, viewport } of SIZES) {
    it(`exports what the filtered table shows, under a name that says so (${name})`, async () => {
      const page = await pageAt(viewport, true);
      await page.goto(`${product.stack.url}/searches/${searchId}`);
      const rows = page.getByTestId('leads-table').locator('tbody tr');
      await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(20);
      // A word that shows some leads with an email, not all: what a user narrows a list with.
      const shownBy = (word: string) => leads.filter((lead) => matchesFilter(lead, { ...NO_FILTER, text: word, hasEmail: true }));
      const word = leads.flatMap((lead) => lead.company.split(/\s+/)).find((w) => shownBy(w).length > 0 && shownBy(w).length < 20)!;
      expect(word).toBeDefined();
      const shown = shownBy(word);
      await page.getByLabel('Filter', { exact: true }).fill(word);
      await page.getByLabel('Has email').check();
      await page.getByText(`Showing ${shown.length} of 20`).waitFor();
      expect(await rows.count()).toBe(shown.length);
      const exportButton = page.getByRole('button', { name: `Export ${shown.length} of 20 as CSV` });
      await exportButton.scrollIntoViewIfNeeded();
      await screenshot(page, `promises-filtered-export-${name}`);
      const [download] = await Promise.all([page.waitForEvent('download'), exportButton.click()]);
      expect(download.suggestedFilename()).toMatch(new RegExp(`^leadforge-dentist-lindenfeld-\\d{4}-\\d{2}-\\d{2}-filtered-${shown.length}-of-20\\.csv$`));
      const csv: Record<string, string>[] = parse(await downloadedBytes(download), { bom: true, columns: true });
      expect(csv.map((row) => row.Company)).toEqual(shown.map((lead) => lead.company));

      // The selection exports its rows, and its name says how many.
      await rows.nth(0).getByRole('checkbox').check();
      const [selected] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export 1 selected as CSV' }).click()]);
      expect(selected.suggestedFilename()).toMatch(/-selected-1\.csv$/);
      // The page's balance is the header's, not the one this search left.
      const balance = await product.balance(user.token);
      expect(await page.locator('[data-stat="remaining_credits"] dd').innerText()).toBe(String(balance));
      expect(await page.getByTestId('credit-badge').innerText()).toContain(String(balance));
    }, 120_000);

    it(`claims on the home page only what the product measured and runs with (${name})`, async () => {
      const page = await pageAt(viewport, false);
      await page.goto(`${product.stack.url}/`);
      const stats = page.getByTestId('trust-stats');
      await stats.getByText('see the figures').waitFor({ timeout: 30_000 });
      const measured = (await product.api('GET', '/api/lead-stats')).body as PublicLeadStats;
      expect(measured.searches_completed).toBeGreaterThanOrEqual(1);
      expect(measured.leads_delivered).toBeGreaterThanOrEqual(20);
      // The median the product measured, with how many searches it was measured over.
      const median = measured.median_seconds_to_results!;
      await stats.getByText(median < 90 ? `${median}s` : `${Math.round(median / 60)} min`, { exact: true }).waitFor();
      await stats.getByText(/median from search to results \(\d+ search(es)?, last 30 days\)/).waitFor();
      // The mail check is off here, so no email was judged: no accuracy figure, only what every email carries.
      expect(measured.emails_checked).toBe(0);
      await stats.getByText('on every email: deliverable, undeliverable, accept all or unknown').waitFor();
      const text = await page.locator('body').innerText();
      expect(text).not.toContain('95%');
      expect(text).not.toContain('30-60');
      // No proxy is configured in this product, so none is claimed.
      expect((await product.api('GET', '/api/scrape/status')).body).toEqual({ proxy_configured: false });
      expect(text.toLowerCase()).not.toContain('prox');
      expect(await page.getByTestId('example-pill').innerText()).toBe('Example');
      await screenshot(page, `promises-home-claims-${name}`);
      // The figures and the sample up close: a whole phone page is too tall to read.
      await stats.screenshot({ path: path.join(SHOTS_DIR, `promises-home-figures-${name}.png`) });
      await page.locator('.lead-preview').screenshot({ path: path.join(SHOTS_DIR, `promises-home-example-${name}.png`) });
    }, 60_000);
  }
});
