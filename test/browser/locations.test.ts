import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { bearer } from '../support/api.ts';
import { axeFindings, sidewaysOverflow } from '../support/accessibility.ts';
import { chromiumAvailable, launchBrowser, screenshot } from '../support/browser.ts';
import { startProductAround, type ProductAround } from '../support/productAround.ts';
import { FIXTURE_AMBIGUOUS, FIXTURE_NOWHERE, FIXTURE_TOWN } from '../../services/scraper/test/fixtureWeb/providerAnswers.ts';

const VIEWPORTS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

/**
 * Confirm before paying, in the browser: the location field offers the places a text may mean (a
 * listbox worked by keyboard), the chosen one fixes the place searched, an estimate of what exists
 * there shows before the search starts, and the search's page names the place in full; a search of
 * a place that does not exist says so. On a desktop and on a phone.
 */
describe.skipIf(!chromiumAvailable)('choosing the place before paying, in the browser', () => {
  let product: ProductAround;
  let browser: Browser;
  let token = '';

  beforeAll(async () => {
    [product, browser] = await Promise.all([startProductAround(), launchBrowser()]);
    const user = await product.register('browser-locations@example.com');
    token = user.token;
    await product.setCredits(user.id, user.token, 200);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await product?.close();
  });

  const signedIn = async (viewport: { width: number; height: number }): Promise<Page> => {
    const page = await (await browser.newContext({ viewport })).newPage();
    await page.goto(`${product.stack.url}/login`);
    await page.evaluate((t) => localStorage.setItem('token', t), token);
    return page;
  };

  for (const { name, viewport } of VIEWPORTS) {
    it(`${name}: the type-ahead lists the places of an ambiguous name, picked by keyboard`, async () => {
      const page = await signedIn(viewport);
      await page.goto(`${product.stack.url}/dashboard`);
      const location = page.getByRole('combobox', { name: 'Location' });
      await page.getByLabel('Industry').fill('Dentists');
      await location.pressSequentially(FIXTURE_AMBIGUOUS.name);
      const options = page.getByRole('listbox', { name: 'Places' }).getByRole('option');
      await expect.poll(() => options.allInnerTexts(), { timeout: 15_000 }).toHaveLength(FIXTURE_AMBIGUOUS.places.length);
      expect((await options.allInnerTexts()).map((text) => text.split('\n')[0])).toEqual(FIXTURE_AMBIGUOUS.places);
      await expect.poll(() => page.locator('.location-status').innerText()).toBe('3 places have this name: pick the one you mean.');
      await location.press('ArrowDown');
      await location.press('ArrowDown');
      expect(await options.nth(1).getAttribute('aria-selected')).toBe('true');
      expect(await location.getAttribute('aria-activedescendant')).toBe(await options.nth(1).getAttribute('id'));
      expect(await sidewaysOverflow(page)).toBe(0);
      expect(await axeFindings(page)).toEqual([]);
      await screenshot(page, `locations-typeahead-${name}`);
      await location.press('Enter');
      expect(await location.inputValue()).toBe(FIXTURE_AMBIGUOUS.places[1]);
      await expect.poll(() => location.getAttribute('aria-expanded')).toBe('false');
      await page.close();
    }, 60_000);

    it(`${name}: the chosen place's estimate shows before the search; the search's page names the place in full`, async () => {
      const page = await signedIn(viewport);
      await page.goto(`${product.stack.url}/dashboard`);
      const location = page.getByRole('combobox', { name: 'Location' });
      await page.getByLabel('Industry').fill('Dentists');
      await location.pressSequentially(FIXTURE_TOWN.name);
      await page.getByRole('option', { name: new RegExp(FIXTURE_TOWN.displayName) }).waitFor({ timeout: 15_000 });
      await location.press('ArrowDown');
      await location.press('Enter');
      expect(await location.inputValue()).toBe(FIXTURE_TOWN.displayName);
      const estimate = page.locator('.place-estimate');
      await expect.poll(() => estimate.innerText(), { timeout: 15_000 })
        .toBe(`About ${product.web.places.length} dentists in ${FIXTURE_TOWN.shortName} (an estimate from the map, before you pay).`);
      expect(await sidewaysOverflow(page)).toBe(0);
      await screenshot(page, `locations-estimate-${name}`);

      await page.getByLabel('Number of leads').fill('3');
      await page.getByRole('button', { name: 'Generate Leads' }).click();
      await page.getByRole('link', { name: 'This search on its own page' }).click({ timeout: 90_000 });
      await page.getByRole('heading', { name: `Dentists in ${FIXTURE_TOWN.displayName}` }).waitFor({ timeout: 15_000 });
      const latest = await product.api('GET', '/api/lead-searches?page_size=1', undefined, bearer(token));
      expect(latest.body.searches[0]).toMatchObject({ location: FIXTURE_TOWN.displayName, status: 'completed', leads_count: 3 });
      await screenshot(page, `locations-search-page-${name}`);

      // A location typed, not picked: the page says which place the geocoder took it for.
      const typed = await product.api('POST', '/api/generate-leads', { industry: 'Dentists', location: 'London', quantity: 1 }, bearer(token));
      expect(typed.status).toBe(200);
      const search = (await product.api('GET', '/api/lead-searches?page_size=1', undefined, bearer(token))).body.searches[0];
      // The coverage comes with the lead that ended the search, and is kept though the search had ended.
      let fullName = '';
      await expect.poll(async () => {
        fullName = (await product.api('GET', `/api/lead-searches/${search.id}`, undefined, bearer(token))).body.coverage?.area.full_name ?? '';
        return fullName;
      }, { timeout: 15_000 }).toMatch(/^London, Greater London, England, United Kingdom/);
      await page.goto(`${product.stack.url}/searches/${search.id}`);
      await page.getByText(`Searched: ${fullName}`).waitFor({ timeout: 15_000 });
      await page.close();
    }, 120_000);

    it(`${name}: a search of a place that does not exist says so on its page, nothing charged`, async () => {
      const before = await product.balance(token);
      const failed = await product.api('POST', '/api/generate-leads', { industry: 'Dentists', location: `${FIXTURE_TOWN.name}, ${FIXTURE_NOWHERE}`, quantity: 5 }, bearer(token));
      expect(failed.body.code).toBe('location_not_found');
      const latest = await product.api('GET', '/api/lead-searches?page_size=1', undefined, bearer(token));
      const page = await signedIn(viewport);
      await page.goto(`${product.stack.url}/searches/${latest.body.searches[0].id}`);
      await page.getByRole('alert').filter({ hasText: 'could not find' }).waitFor();
      expect(await page.getByRole('alert').filter({ hasText: 'could not find' }).innerText()).toContain(`Did you mean ${FIXTURE_TOWN.displayName}?`);
      expect(await page.getByRole('heading', { name: 'Places to search instead' }).isVisible()).toBe(true);
      expect(await product.balance(token)).toBe(before);
      expect(await axeFindings(page)).toEqual([]);
      await screenshot(page, `locations-not-found-${name}`);
      await page.close();
    }, 60_000);
  }
});
