import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { SearchCoverage } from '@leadforge/contracts';
import { bearer } from '../support/api.ts';
import { axeFindings, sidewaysOverflow } from '../support/accessibility.ts';
import { chromiumAvailable, launchBrowser, screenshot } from '../support/browser.ts';
import { ADMIN_EMAIL } from '../support/productAccounts.ts';
import { startProductInWorld, type ProductInWorld } from '../support/productInWorld.ts';
import { startSimulatedWorld, WORLD_SMALL_TOWN, type SimulatedWorld } from '../support/simulatedWorld.ts';

/**
 * The admin's "Places sources" table (issue 24, cost under control): a search on the simulated world
 * with OpenStreetMap, Google Places and a Decodo source without its token; the table on the Decodo
 * Stats tab says what the search asked of each provider, as the search's own coverage does.
 */
describe.skipIf(!chromiumAvailable)('the places sources table in the admin panel', () => {
  let world: SimulatedWorld;
  let product: ProductInWorld;
  let browser: Browser;
  let page: Page;
  const table = () => page.getByTestId('places-sources');
  const rows = () => table().locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));

  beforeAll(async () => {
    world = await startSimulatedWorld();
    [product, browser] = await Promise.all([
      startProductInWorld(world, { PLACES_SOURCES: 'osm,google,decodo', DECODO_SCRAPER_TOKEN: '' }),
      launchBrowser(),
    ]);
    const login = await product.api('POST', '/api/auth/login', { email: ADMIN_EMAIL, password: 'secret123' });
    expect(login.status).toBe(200);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(`${product.stack.url}/login`);
    await page.evaluate((token) => localStorage.setItem('token', token), login.body.access_token as string);
  }, 480_000);
  afterAll(async () => {
    await browser?.close();
    await product?.close();
    await world?.close();
  });

  it('says so when no search has asked a provider yet', async () => {
    await page.goto(`${product.stack.url}/admin`);
    await page.getByRole('tab', { name: 'Decodo Stats' }).click();
    await page.getByRole('heading', { name: 'Places sources' }).waitFor();
    await page.getByText('No provider requests in this period').waitFor();
    expect(await table().count()).toBe(0);
  }, 60_000);

  it('shows each provider\'s requests, places and errors after a search, as its coverage counts them', async () => {
    const user = await product.register('places-sources@example.com');
    await product.setCredits(user.id, user.token, 100);
    const search = await product.api('POST', '/api/generate-leads', { industry: 'Dentists', location: WORLD_SMALL_TOWN, quantity: 100 }, bearer(user.token));
    expect(search.status).toBe(200);
    const coverage = search.body.stats.coverage as SearchCoverage;
    const { osm, google, decodo } = coverage.sources;
    expect(decodo).toMatchObject({ requests: 0, error: 'the decodo source needs DECODO_SCRAPER_TOKEN' });
    const geocoding = coverage.provider_requests - osm!.requests - google!.requests;
    expect(geocoding).toBe(1);

    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await table().waitFor();
    const expected = [
      ['OpenStreetMap (Overpass)', String(osm!.requests), String(osm!.places), '0'],
      ['Google Places', String(google!.requests), String(google!.places), '0'],
      ['Nominatim (geocoding)', '1', '0', '0'],
      ['Decodo (Google Maps)', '0', '0', '1'],
    ];
    // Most requests first; Overpass and Google may ask as many as each other.
    const byRequests = (a: string[], b: string[]) => Number(b[1]) - Number(a[1]) || a[0].localeCompare(b[0]);
    const shown = await rows();
    expect([...shown].sort(byRequests)).toEqual(expected.sort(byRequests));
    const requests = shown.map((row) => Number(row[1]));
    expect(requests).toEqual([...requests].sort((a, b) => b - a));
    expect(await axeFindings(page)).toEqual([]);
    await screenshot(page, 'admin-places-sources');

    // Today's figures are the same: the search ran today.
    const today = page.waitForResponse((response) => response.url().includes('/api/admin/decodo-usage?days=1') && response.ok());
    await page.getByLabel('Period').selectOption({ label: 'Today' });
    expect((await (await today).json()).places_sources).toHaveLength(4);
    expect((await rows()).sort(byRequests)).toEqual(expected.sort(byRequests));

    // On a phone the table fits the screen, its own box too (no column scrolled out of sight).
    await page.setViewportSize({ width: 390, height: 844 });
    await table().waitFor();
    expect(await sidewaysOverflow(page)).toBe(0);
    const columns = await table().evaluate((element) => ({
      past: element.parentElement!.scrollWidth - element.parentElement!.clientWidth,
      widths: [...element.querySelectorAll('th')].map((th) => th.getBoundingClientRect().width),
      room: element.parentElement!.clientWidth,
    }));
    expect(columns, JSON.stringify(columns)).toMatchObject({ past: 0 });
    await screenshot(page, 'admin-places-sources-phone');
  }, 240_000);
});
