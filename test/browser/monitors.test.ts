import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { chromiumAvailable, launchBrowser, screenshot } from '../support/browser.ts';
import { bearer } from '../support/api.ts';
import { startProductAround, type ProductAround } from '../support/productAround.ts';

describe.skipIf(!chromiumAvailable)(`the Monitors page in the browser${chromiumAvailable ? '' : ' (needs Debian chromium at /usr/bin/chromium)'}`, () => {
  let product: ProductAround;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [product, browser] = await Promise.all([startProductAround({ env: { SCRAPER_TIMEOUT_MS: '60000' } }), launchBrowser()]);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await product?.close();
  });

  it('watches a finished search from the dashboard, runs it now, opens its leads, pauses, resumes and deletes after a confirmation', async () => {
    product.setSource('twelve');
    const user = await product.register('monitor-browser@example.com');
    await product.setCredits(user.id, user.token, 50);
    // A finished search of the area, as the dashboard shows it after generating.
    const searched = await product.api('POST', '/api/generate-leads', { industry: 'Dentists', location: 'London', quantity: 5 }, bearer(user.token));
    expect(searched.status).toBe(200);

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${product.stack.url}/login`);
    await page.evaluate((token) => localStorage.setItem('token', token), user.token);
    await page.goto(`${product.stack.url}/dashboard`);
    await page.getByRole('link', { name: 'Watch this search' }).click();
    await page.waitForURL(/\/monitors\?/);
    await page.getByRole('heading', { name: 'Monitors', exact: true }).waitFor();
    expect(await page.getByLabel('Industry').inputValue()).toBe('Dentists');
    expect(await page.getByLabel('Location').inputValue()).toBe('London');
    await page.getByLabel('Most new leads per run').fill('20');
    await page.getByLabel('Runs').selectOption('weekly');
    await page.getByRole('button', { name: 'Create monitor' }).click();
    const item = page.getByTestId('monitor-item');
    await item.waitFor();
    expect(await item.textContent()).toContain('Dentists in London');
    expect(await item.textContent()).toContain('every week');
    expect(await item.textContent()).toContain('Last result: not run yet');
    await screenshot(page, 'monitors-created');

    // Run now: the five businesses of the first search are never delivered again; the other seven are.
    await item.getByRole('button', { name: 'Run now' }).click();
    const runLeads = page.locator('.monitor-run-leads');
    await runLeads.getByRole('status').filter({ hasText: '7 new businesses, 7 credits' }).waitFor({ timeout: 60_000 });
    expect(await runLeads.locator('tbody tr').count()).toBe(7);
    await item.getByText('7 new, 7 credits').waitFor();
    // The header's balance shows what the run charged: 50 - 5 - 7.
    await page.getByText('38 credits').first().waitFor();
    await screenshot(page, 'monitors-run-leads');

    await item.getByRole('button', { name: 'Pause' }).click();
    await item.getByText('Paused', { exact: true }).waitFor();
    await item.getByText('Next run: paused').waitFor();
    await item.getByRole('button', { name: 'Runs' }).click();
    await item.locator('.monitor-runs tbody tr').first().waitFor();
    await screenshot(page, 'monitors-paused-with-runs');
    await item.getByRole('button', { name: 'Resume' }).click();
    await item.getByText('Active', { exact: true }).waitFor();

    await item.getByRole('button', { name: 'Delete Dentists in London' }).click();
    await item.getByRole('group', { name: 'Delete the monitor Dentists in London?' }).waitFor();
    await screenshot(page, 'monitors-delete-confirm');
    await item.getByRole('button', { name: 'Keep' }).click();
    await item.getByRole('button', { name: 'Delete Dentists in London' }).click();
    await item.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('No monitors yet.').waitFor();
    // The run stays in the history.
    const history = (await product.api('GET', '/api/lead-searches', undefined, bearer(user.token))).body.searches;
    expect(history).toHaveLength(2);

    // The user menu leads here too.
    await page.goto(`${product.stack.url}/dashboard`);
    await page.getByTestId('user-menu-button').click();
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Monitors' }).click();
    await page.waitForURL(`${product.stack.url}/monitors`);
    expect(problems).toEqual([]);
  }, 240_000);
});
