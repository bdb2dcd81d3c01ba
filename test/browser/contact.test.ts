import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { startLocalStack, type LocalStackProcess } from '../support/localStack.ts';
import { chromiumAvailable, launchBrowser, screenshot } from '../support/browser.ts';

/** A full-page shot from the top, so the sticky header sits where a person sees it. */
async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

describe.skipIf(!chromiumAvailable)('the contact page in local mode, with the built-in test check (needs Debian chromium at /usr/bin/chromium)', () => {
  let stack: LocalStackProcess;
  let browser: Browser;
  let page: Page;
  let form: Locator;
  const url = (path: string) => `${stack.url}${path}`;
  const robotCheckbox = () => page.getByTestId('robot-check').getByRole('checkbox', { name: "I'm not a robot" });

  async function fill(message = 'Do you cover Lisbon?') {
    await form.getByLabel('Name').fill('Grace Hopper');
    await form.getByLabel('Email').fill('grace@example.com');
    await form.getByLabel('Message').fill(message);
  }

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startLocalStack(), launchBrowser()]);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    form = page.locator('form.contact-form');
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('shows the headings, contact details, quick help and a labelled dark test check', async () => {
    await page.goto(url('/contact'));
    await page.getByRole('heading', { name: 'Contact Us', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'support@leadforge.app' }).first().waitFor();
    for (const text of ['Within 1 business day', 'Technical and billing support', 'Account & Billing', 'Lead Generation', 'API & Integration']) {
      await page.getByText(text, { exact: true }).waitFor();
    }
    expect(await form.getByLabel('Email').getAttribute('type')).toBe('email');
    await robotCheckbox().waitFor();
    await page.getByText('Test check (local mode): not a real reCAPTCHA').waitFor();
    expect(await page.locator('.local-check').getAttribute('class')).toContain('local-check-dark');
    await shot(page, 'contact-page');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'contact-page-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('asks for the fields, then for the robot check', async () => {
    await form.getByRole('button', { name: 'Send Message' }).click();
    await form.getByRole('alert').filter({ hasText: 'Please fill in all required fields' }).waitFor();
    await fill();
    await form.getByRole('button', { name: 'Send Message' }).click();
    await form.getByRole('alert').filter({ hasText: 'Please complete the reCAPTCHA verification' }).waitFor();
    await shot(page, 'contact-check-missing');
  });

  it('says "Failed to send message" when the server cannot be reached, and resets the check', async () => {
    await page.route('**/api/contact', (route) => route.abort('connectionrefused'));
    await robotCheckbox().check();
    await form.getByRole('button', { name: 'Send Message' }).click();
    await form.getByRole('alert').filter({ hasText: 'Failed to send message. Please try again.' }).waitFor();
    expect(await robotCheckbox().isChecked()).toBe(false);
    expect(await form.getByLabel('Message').inputValue()).toBe('Do you cover Lisbon?');
    await shot(page, 'contact-send-failed');
    await page.unroute('**/api/contact');
  });

  it('sends the message, shows "Message Sent!", and Send Another Message brings back a cleared form and check', async () => {
    await robotCheckbox().check();
    await form.getByRole('button', { name: 'Send Message' }).click();
    await page.getByRole('heading', { name: 'Message Sent!' }).waitFor();
    await shot(page, 'contact-message-sent');
    await page.getByRole('button', { name: 'Send Another Message' }).click();
    for (const label of ['Name', 'Email', 'Message']) expect(await form.getByLabel(label).inputValue()).toBe('');
    await robotCheckbox().waitFor();
    expect(await robotCheckbox().isChecked()).toBe(false);
    expect(await form.getByRole('alert').count()).toBe(0);
  });
});
