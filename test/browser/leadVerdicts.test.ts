import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { SERVICE_DEFINITIONS } from '@leadforge/stack';
import { chromiumAvailable, launchBrowser, screenshot } from '../support/browser.ts';
import { startLoopbackDns } from '../../services/scraper/test/support/loopbackDns.ts';
import { startProductAround, type ProductAround } from '../support/productAround.ts';

const missing = ['billing', 'scraper', 'leads'].filter((name) => !SERVICE_DEFINITIONS.some((def) => def.name === name));
const why = [
  ...(!chromiumAvailable ? ['needs Debian chromium at /usr/bin/chromium'] : []),
  ...(missing.length ? [`waiting: ${missing.join(', ')} not yet in stack/src/services.ts`] : []),
];

describe.skipIf(why.length > 0)(`contact verdicts and provenance in the results table${why.length ? ` (${why.join('; ')})` : ''}`, () => {
  let product: ProductAround;
  let browser: Browser;
  let page: Page;
  let dns: Awaited<ReturnType<typeof startLoopbackDns>>;

  beforeAll(async () => {
    // Every domain takes mail, according to a name server on loopback: the MX check runs for real
    // through node's resolver, and never asks the real DNS.
    dns = await startLoopbackDns((domain) => [`mx.${domain}`]);
    [product, browser] = await Promise.all([
      startProductAround({ sites: 40, env: { EMAIL_MX_CHECK: 'true', EMAIL_MX_RESOLVER: dns.address, EMAIL_MX_TIMEOUT_MS: '2000' } }),
      launchBrowser(),
    ]);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await product?.close();
    await dns?.close();
  });

  it('badges each email and phone, says on hover where it came from, and filters to valid emails', async () => {
    const user = await product.register('browser-verdicts@example.com');
    await product.setCredits(user.id, user.token, 20);
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    page = await context.newPage();
    await page.goto(`${product.stack.url}/login`);
    await page.evaluate((token) => localStorage.setItem('token', token), user.token);
    await page.goto(`${product.stack.url}/dashboard`);
    await page.getByLabel('Industry').fill('Dentists');
    await page.getByLabel('Location').fill('London');
    await page.getByLabel('Number of leads').fill('12');
    await page.getByRole('button', { name: 'Generate Leads' }).click();
    await page.getByTestId('search-progress').waitFor();
    await page.getByTestId('search-progress').waitFor({ state: 'detached', timeout: 60_000 });
    const rows = page.getByTestId('leads-table').locator('tbody tr');
    expect(await rows.count()).toBe(12);

    const badges = await page.locator('.verdict-badge').allInnerTexts();
    expect(badges).toEqual(expect.arrayContaining(['Valid', 'Risky']));
    const mail = page.locator('a[href^="mailto:"]').first();
    expect(await mail.getAttribute('title')).toMatch(/^(Found on http:\/\/site-\d+\.fixture\.test\/\S*, fetched |From the map listing)/);
    // People read the international format with spaces; the link keeps E.164.
    const tel = page.locator('a[href^="tel:"]').first();
    expect(await tel.getAttribute('href')).toMatch(/^tel:\+\d+$/);
    expect(await tel.innerText()).toMatch(/^\+\d+ \d/);
    await mail.hover();
    await screenshot(page, 'leads-verdicts');

    const valid = badges.filter((badge) => badge === 'Valid').length;
    // The table's words are the exports' (contracts' vocabulary): "Unknown", never a synonym such as "Unchecked".
    expect(badges.filter((badge) => /^(Valid|Risky|Invalid|Unknown)$/.test(badge)).length).toBeGreaterThan(0);
    expect(badges).not.toContain('Unchecked');
    await page.getByTestId('email-verdict-filter').selectOption('valid');
    await expect.poll(() => rows.count()).toBe(valid);
    expect(await page.locator('tbody .verdict-badge').filter({ hasText: /^(Risky|Invalid|Unknown)$/ }).count()).toBe(0);
    await screenshot(page, 'leads-verdicts-only-valid');
  }, 120_000);
});
