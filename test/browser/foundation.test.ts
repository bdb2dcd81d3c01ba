import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startLocalStack, type LocalStackProcess } from '../support/localStack.ts';
import { chromiumAvailable, launchBrowser, screenshot } from '../support/browser.ts';

describe.skipIf(!chromiumAvailable)('foundation in the browser (needs Debian chromium at /usr/bin/chromium)', () => {
  let stack: LocalStackProcess;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startLocalStack(), launchBrowser()]);
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const url = (path: string) => `${stack.url}${path}`;

  it('shows the marketing home page', async () => {
    await page.goto(url('/'));
    await page.getByRole('link', { name: 'Get Started Free' }).first().waitFor();
    await page.getByRole('link', { name: 'Sign In' }).first().waitFor();
    await screenshot(page, 'foundation-home');
  });

  it('sends an unknown path to the home page', async () => {
    await page.goto(url('/no/such/page'));
    await page.waitForURL(url('/'));
  });

  it('validates the register form, registers and lands on the dashboard', async () => {
    await page.goto(url('/register'));
    await page.getByRole('button', { name: /create account/i }).click();
    await page.getByRole('alert').filter({ hasText: 'Please fill in all fields' }).waitFor();
    await page.getByLabel('Full name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password', { exact: true }).fill('secret1');
    await page.getByLabel(/confirm password/i).fill('secret2');
    await page.getByRole('button', { name: /create account/i }).click();
    await page.getByRole('alert').filter({ hasText: 'Passwords do not match' }).waitFor();
    await screenshot(page, 'foundation-register-error');
    await page.getByLabel(/confirm password/i).fill('secret1');
    await page.getByRole('button', { name: /create account/i }).click();
    await page.waitForURL(url('/dashboard'));
    await page.getByTestId('credit-badge').waitFor();
    await screenshot(page, 'foundation-signed-in-header');
  });

  it('logs out to the home page', async () => {
    await page.getByTestId('user-menu-button').click();
    await screenshot(page, 'foundation-user-menu');
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(url('/'));
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.getByRole('link', { name: 'Get Started' }).first().waitFor();
  });

  it('sends a signed-out visitor of /credits to /login and back to /credits after login', async () => {
    await page.goto(url('/credits'));
    await page.waitForURL(url('/login'));
    await screenshot(page, 'foundation-login');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    await page.getByLabel('Password').fill('secret1');
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.waitForURL(url('/credits'));
  });

  it('sends a non-admin away from /admin to /dashboard', async () => {
    await page.goto(url('/admin'));
    await page.waitForURL(url('/dashboard'));
  });
});

