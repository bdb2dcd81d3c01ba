import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { SERVICE_DEFINITIONS } from '@leadforge/stack';
import { chromiumAvailable, launchBrowser, screenshot } from '../support/browser.ts';
import { startMailWorld, type MailWorld } from '../support/mailWorld.ts';
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
  let world: MailWorld;

  beforeAll(async () => {
    // The sites' domains in a mail world on loopback: a third accept everything, the others know some
    // of their mailboxes; the MX look-up and the SMTP conversation run for real and never leave loopback.
    world = await startMailWorld((domain) => {
      const site = /^site-(\d+)\.fixture\.test$/.exec(domain);
      if (!site) return { behaviour: 'mailbox', mailboxes: [] };
      const n = Number(site[1]);
      return n % 3 === 1 ? { behaviour: 'accept_all' } : { behaviour: 'mailbox', mailboxes: n % 3 === 0 ? ['info', 'hello'] : ['info', 'hello', 'office', 'anna.berger'] };
    });
    [product, browser] = await Promise.all([
      startProductAround({ sites: 40, env: world.env() }),
      launchBrowser(),
    ]);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await product?.close();
    await world?.close();
  });

  it('badges each email and phone, says on hover where it came from, and filters to deliverable emails', async () => {
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
    expect(badges).toEqual(expect.arrayContaining(['Deliverable', 'Accept all']));
    const mail = page.locator('a[href^="mailto:"]').first();
    expect(await mail.getAttribute('title')).toMatch(/^(Found on http:\/\/site-\d+\.fixture\.test\/\S*, fetched |From the map listing)/);
    // People read the international format with spaces; the link keeps E.164.
    const tel = page.locator('a[href^="tel:"]').first();
    expect(await tel.getAttribute('href')).toMatch(/^tel:\+\d+$/);
    expect(await tel.innerText()).toMatch(/^\+\d+ \d/);
    await mail.hover();
    await screenshot(page, 'leads-verdicts');

    const deliverable = badges.filter((badge) => badge === 'Deliverable').length;
    // The table's words are the exports' (contracts' vocabulary): "Unknown", never a synonym such as "Unchecked".
    expect(badges.filter((badge) => /^(Deliverable|Undeliverable|Accept all|Unknown)$/.test(badge)).length).toBeGreaterThan(0);
    expect(badges).not.toContain('Unchecked');
    await page.getByTestId('email-verdict-filter').selectOption('deliverable');
    await expect.poll(() => rows.count()).toBe(deliverable);
    expect(await page.locator('tbody .verdict-badge').filter({ hasText: /^(Undeliverable|Accept all|Unknown)$/ }).count()).toBe(0);
    await screenshot(page, 'leads-verdicts-only-deliverable');
  }, 120_000);
});
