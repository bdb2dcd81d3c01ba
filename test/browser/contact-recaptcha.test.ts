import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startLocalStack, type LocalStackProcess } from '../support/localStack.ts';
import { chromiumAvailable, launchBrowser, screenshot } from '../support/browser.ts';

/** A full-page shot from the top, so the sticky header sits where a person sees it. */
async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}
import { startSiteVerifyStandIn } from '../../services/contact/test/support/siteverifyStandIn.ts';

const GOOGLE_SCRIPT = 'https://www.google.com/recaptcha/api.js*';

/**
 * Google's api.js cannot be fetched here (no internet), so the browser gets a stand-in with the
 * same grecaptcha interface (render with explicit rendering, getResponse, reset). Each tick of its
 * checkbox hands out the next of `tokens`, as Google's widget hands out a token per solved check.
 */
function grecaptchaStandIn(tokens: string[]): string {
  return `(() => {
    const tokens = ${JSON.stringify(tokens)};
    const widgets = [];
    window.grecaptcha = {
      render(element, params) {
        const id = widgets.length;
        element.dataset.theme = params.theme;
        element.dataset.sitekey = params.sitekey;
        const label = document.createElement('label');
        label.className = 'grecaptcha-stand-in';
        label.style.cssText = 'display:flex;gap:10px;align-items:center;width:304px;height:78px;padding:0 12px;background:#222;color:#fff;border:1px solid #4a4a4a;border-radius:3px;box-sizing:border-box';
        const box = document.createElement('input');
        box.type = 'checkbox';
        label.append(box, "I'm not a robot (Google widget stand-in)");
        element.append(label);
        const widget = { token: '', box };
        widgets.push(widget);
        box.addEventListener('change', () => { widget.token = box.checked ? (tokens.shift() || '') : ''; });
        return id;
      },
      getResponse(id = 0) { return widgets[id].token; },
      reset(id = 0) { widgets[id].token = ''; widgets[id].box.checked = false; },
    };
  })();`;
}

describe.skipIf(!chromiumAvailable)('the contact page with reCAPTCHA keys (needs Debian chromium at /usr/bin/chromium)', () => {
  let stack: LocalStackProcess;
  let browser: Browser;
  let google: Awaited<ReturnType<typeof startSiteVerifyStandIn>>;
  let page: Page;
  const url = (path: string) => `${stack.url}${path}`;
  const checkbox = () => page.getByRole('checkbox', { name: /I'm not a robot/ });
  const form = () => page.locator('form.contact-form');

  async function fill() {
    await form().getByLabel('Name').fill('Grace Hopper');
    await form().getByLabel('Email').fill('grace@example.com');
    await form().getByLabel('Message').fill('Do you cover Lisbon?');
  }

  beforeAll(async () => {
    google = await startSiteVerifyStandIn();
    [stack, browser] = await Promise.all([
      startLocalStack({ env: { RECAPTCHA_SITE_KEY: google.siteKey, RECAPTCHA_SECRET: google.secret, RECAPTCHA_VERIFY_URL: google.url } }),
      launchBrowser(),
    ]);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await google?.close();
  });

  it('draws Google\'s widget with the site key in the dark theme and sends with a verified token', async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const valid = google.issue('localhost');
    await page.route(GOOGLE_SCRIPT, (route) => route.fulfill({ contentType: 'text/javascript', body: grecaptchaStandIn([valid, 'a-token-google-never-issued']) }));
    await page.goto(url('/contact'));
    await checkbox().waitFor();
    const widget = page.getByTestId('robot-check').locator('[data-theme]');
    expect(await widget.getAttribute('data-theme')).toBe('dark');
    expect(await widget.getAttribute('data-sitekey')).toBe(google.siteKey);

    await fill();
    await checkbox().check();
    await form().getByRole('button', { name: 'Send Message' }).click();
    await page.getByRole('heading', { name: 'Message Sent!' }).waitFor();
    expect(google.requests.at(-1)).toMatchObject({ secret: google.secret, response: valid });
  });

  it('shows the failed verification and resets the check', async () => {
    await page.getByRole('button', { name: 'Send Another Message' }).click();
    await fill();
    await checkbox().check();
    await form().getByRole('button', { name: 'Send Message' }).click();
    await form().getByRole('alert').filter({ hasText: 'reCAPTCHA verification failed. Please try again.' }).waitFor();
    expect(await checkbox().isChecked()).toBe(false);
    await shot(page, 'contact-recaptcha-failed');
    await page.close();
  });

  it('says reCAPTCHA is not loaded once 10 seconds of polling find no widget', async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.route(GOOGLE_SCRIPT, (route) => route.abort('internetdisconnected'));
    const started = Date.now();
    await page.goto(url('/contact'));
    const notLoaded = form().getByRole('alert').filter({ hasText: 'reCAPTCHA is not loaded. Please refresh the page and try again.' });
    await notLoaded.waitFor({ timeout: 15_000 });
    expect(Date.now() - started).toBeGreaterThan(9_500);
    await fill();
    await form().getByRole('button', { name: 'Send Message' }).click();
    await notLoaded.waitFor();
    await shot(page, 'contact-recaptcha-not-loaded');
    await page.close();
  });
});
