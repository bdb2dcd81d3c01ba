import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { LeadStats, SearchCoverage } from '@leadforge/contracts';
import { bearer } from '../support/api.ts';
import { axeFindings, sidewaysOverflow } from '../support/accessibility.ts';
import { chromiumAvailable, launchBrowser, screenshot } from '../support/browser.ts';
import { startProductInWorld, type ProductInWorld } from '../support/productInWorld.ts';
import { startSimulatedWorld, WORLD_CITY, WORLD_SMALL_TOWN, type SimulatedWorld } from '../support/simulatedWorld.ts';

interface SearchDetail {
  id: string;
  quantity: number;
  stats: LeadStats;
  coverage: SearchCoverage | null;
}

/**
 * The coverage sentence in the browser (issue 24): the product against the simulated world (a small
 * town the search exhausts, a city holding more than it asks for), searched with OpenStreetMap and
 * Google together; the sentence's numbers are the API's, and the search's own page says the same
 * after a reload, on a desktop and on a phone.
 */
describe.skipIf(!chromiumAvailable)('coverage, said in the browser', () => {
  let world: SimulatedWorld;
  let product: ProductInWorld;
  let browser: Browser;
  let page: Page;
  let token = '';
  const sentence = () => page.getByTestId('coverage-sentence');

  beforeAll(async () => {
    world = await startSimulatedWorld();
    [product, browser] = await Promise.all([startProductInWorld(world, { PLACES_SOURCES: 'osm,google' }), launchBrowser()]);
    const user = await product.register('browser-coverage@example.com');
    token = user.token;
    await product.setCredits(user.id, user.token, 500);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.goto(`${product.stack.url}/login`);
    await page.evaluate((t) => localStorage.setItem('token', t), token);
  }, 480_000);
  afterAll(async () => {
    await browser?.close();
    await product?.close();
    await world?.close();
  });

  /** Runs a search from the dashboard's form and waits for it to end; its detail from the API. */
  async function searchFromDashboard(location: string, quantity: number): Promise<SearchDetail> {
    await page.goto(`${product.stack.url}/dashboard`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByLabel('Industry').fill('Dentists');
    await page.getByLabel('Location').fill(location);
    await page.getByLabel('Number of leads').fill(String(quantity));
    await page.getByRole('button', { name: 'Generate Leads' }).click();
    await page.getByTestId('search-progress').waitFor();
    await page.getByTestId('search-progress').waitFor({ state: 'detached', timeout: 150_000 });
    await sentence().waitFor();
    const latest = await product.api('GET', '/api/lead-searches?page_size=1', undefined, bearer(token));
    const id = latest.body.searches[0].id as string;
    const detail = await product.api('GET', `/api/lead-searches/${id}`, undefined, bearer(token));
    expect(detail.status).toBe(200);
    return detail.body as SearchDetail;
  }

  let townSearch: SearchDetail;
  let townSentence = '';

  it('a small town the search exhausts: "Searched all of" it, with the counts the API gives', async () => {
    townSearch = await searchFromDashboard(WORLD_SMALL_TOWN, 100);
    const { stats, coverage } = townSearch;
    expect(coverage).toMatchObject({ area: { name: WORLD_SMALL_TOWN }, exhausted: true });
    // Every dentist there counted, every reachable one delivered: fewer than asked for.
    expect(coverage!.places_found).toBe(world.businesses.filter((b) => b.town === WORLD_SMALL_TOWN).length);
    expect(stats.total_found).toBe(world.contactableIn(WORLD_SMALL_TOWN).length);
    expect(stats.total_found).toBeLessThan(coverage!.places_found);
    townSentence = `Searched all of ${coverage!.area.name}: ${coverage!.places_found} dentists there, ${stats.total_found} with contact details`
      + ` (${stats.with_website} with a website). Charged for those ${stats.total_found}, not 100.`;
    expect(await sentence().innerText()).toBe(townSentence);
    expect(stats.credits_used).toBe(stats.total_found);
    await screenshot(page, 'coverage-dashboard-town-exhausted');
  }, 240_000);

  it('a city holding more than asked for: "Stopped at your N — more exist"', async () => {
    const { stats, coverage, quantity } = await searchFromDashboard(WORLD_CITY, 30);
    expect(quantity).toBe(30);
    expect(coverage).toMatchObject({ area: { name: WORLD_CITY }, exhausted: false });
    expect(stats.total_found).toBe(30);
    expect(await sentence().innerText()).toBe(`Stopped at your 30 — more exist in ${coverage!.area.name}.`);
    await screenshot(page, 'coverage-dashboard-city-stopped');
  }, 240_000);

  it('the same town again: what the user already has is skipped, said, and nothing charged', async () => {
    const { stats, coverage } = await searchFromDashboard(WORLD_SMALL_TOWN, 100);
    expect(coverage).toMatchObject({ area: { name: WORLD_SMALL_TOWN }, exhausted: true });
    expect(stats.skipped_owned).toBe(world.contactableIn(WORLD_SMALL_TOWN).length);
    expect(stats.total_found).toBe(0);
    expect(stats.credits_used).toBe(0);
    expect(await sentence().innerText()).toBe(
      `Searched all of ${coverage!.area.name}: ${coverage!.places_found} dentists there, 0 new with contact details; ${stats.skipped_owned} you already have were skipped. Nothing charged.`,
    );
    await screenshot(page, 'coverage-dashboard-town-owned-skipped');
  }, 240_000);

  for (const viewport of [{ name: 'desktop', width: 1280, height: 800 }, { name: 'phone', width: 390, height: 844 }] as const) {
    it(`the search's own page says the same after a reload (${viewport.name})`, async () => {
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      try {
        await page.goto(`${product.stack.url}/searches/${encodeURIComponent(townSearch.id)}`);
        await sentence().waitFor({ timeout: 30_000 });
        await page.reload();
        await sentence().waitFor({ timeout: 30_000 });
        expect(await sentence().innerText()).toBe(townSentence);
        await page.getByTestId('search-coverage').waitFor();
        expect(await sidewaysOverflow(page)).toBe(0);
        expect(await axeFindings(page)).toEqual([]);
        await screenshot(page, `coverage-search-page-${viewport.name}`);
      } finally {
        await page.setViewportSize({ width: 1280, height: 800 });
      }
    }, 120_000);
  }
});
