import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startLocalStack, type LocalStackProcess } from '../support/localStack.ts';
import { chromiumAvailable, launchBrowser, screenshot } from '../support/browser.ts';

describe.skipIf(!chromiumAvailable)('the Developers page and the API reference in the browser (needs Debian chromium at /usr/bin/chromium)', () => {
  let stack: LocalStackProcess;
  let browser: Browser;
  let page: Page;
  const consoleProblems: string[] = [];

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startLocalStack(), launchBrowser()]);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(15_000);
    page.on('console', (message) => { if (message.type() === 'error') consoleProblems.push(message.text()); });
    page.on('pageerror', (error) => consoleProblems.push(error.message));
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const url = (p: string) => `${stack.url}${p}`;
  const me = (key: string) => fetch(url('/api/auth/me'), { headers: { 'x-api-key': key } });

  it('creates a key (its secret shown once), shows it by prefix in the list and the curl example, and revokes it after a confirmation', async () => {
    const reg = await fetch(url('/api/auth/register'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Margaret Hamilton', email: 'margaret@example.com', password: 'apollo-11' }),
    });
    expect(reg.status).toBe(201);
    await page.goto(url('/login'));
    await page.getByLabel('Email').fill('margaret@example.com');
    await page.getByLabel('Password', { exact: true }).fill('apollo-11');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(url('/dashboard'));

    await page.getByTestId('user-menu-button').click();
    await page.getByRole('link', { name: 'Developers' }).click();
    await page.waitForURL(url('/developers'));
    await page.getByText('No API keys yet.').waitFor();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();

    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('alert').filter({ hasText: 'Please give the key a name' }).waitFor();
    await page.getByLabel('Name').fill('CRM sync');
    await page.getByLabel('Expires').selectOption({ label: '30 days' });
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('api-key-secret').textContent())!;
    expect(secret).toMatch(/^lf_[A-Za-z0-9_-]{40,}$/);
    const row = page.getByTestId('api-key-row');
    await row.waitFor();
    expect(await row.textContent()).toContain(`${secret.slice(0, 11)}…`);
    expect(await row.locator('td').nth(3).textContent()).toBe('Never');
    expect(await page.getByTestId('curl-example').textContent()).toContain(secret.slice(0, 11));
    expect(await page.getByTestId('curl-example').textContent()).not.toContain(secret);
    await screenshot(page, 'developers-key-created');

    await page.getByRole('button', { name: 'I have saved it' }).click();
    expect(await page.getByTestId('api-key-secret').count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
    expect((await me(secret)).status).toBe(200);

    // Its use shows in "Last used" (the fourth column).
    await page.reload();
    await row.waitFor();
    expect(await row.locator('td').nth(3).textContent()).not.toBe('Never');
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByRole('group', { name: 'Revoke CRM sync?' }).waitFor();
    await screenshot(page, 'developers-revoke-confirm');
    await row.getByRole('button', { name: 'Keep' }).click();
    expect((await me(secret)).status).toBe(200);
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByRole('button', { name: 'Yes, revoke' }).click();
    await page.getByText('No API keys yet.').waitFor();
    expect((await me(secret)).status).toBe(401);
  }, 90_000);

  it('links to the interactive reference, which renders from our own origin without breaking the CSP', async () => {
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    const [docs] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByRole('link', { name: 'interactive API reference' }).click(),
    ]);
    docs.setDefaultTimeout(10_000);
    docs.on('console', (message) => { if (message.type() === 'error') consoleProblems.push(message.text()); });
    await docs.waitForURL(url('/api/docs'));
    await docs.getByText('Leadforge API').first().waitFor();
    await docs.locator('.opblock-summary-path', { hasText: '/api/lead-searches' }).first().waitFor();
    await docs.getByRole('button', { name: /Authorize/ }).first().waitFor();
    await screenshot(docs, 'developers-api-docs');
    // Every operation says what it does (not its own method and path again), and the page leads back to the app.
    const summaries = await docs.locator('.opblock-summary-description').allTextContents();
    expect(summaries.length).toBeGreaterThan(20);
    expect(summaries.filter((summary) => !summary.trim() || /^(GET|POST|PUT|PATCH|DELETE) \//.test(summary))).toEqual([]);
    expect(await docs.getByRole('link', { name: '← Back to Leadforge' }).getAttribute('href')).toBe('/');

    // Try a call from the page with an API key.
    const login = await (await fetch(url('/api/auth/login'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'margaret@example.com', password: 'apollo-11' }) })).json();
    const created = await (await fetch(url('/api/api-keys'), { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${login.access_token}` }, body: JSON.stringify({ name: 'docs' }) })).json();
    await docs.locator('.auth-wrapper .authorize').click();
    const keyScheme = docs.locator('.auth-container').filter({ hasText: 'X-API-Key' });
    await keyScheme.locator('input').fill(created.key);
    await keyScheme.locator('button.authorize').click();
    await keyScheme.getByText('Authorized').first().waitFor();
    await docs.locator('.modal-ux .btn-done').first().click();
    const meOperation = docs.locator('#operations-auth-getAuthMe');
    await meOperation.locator('.opblock-summary').click();
    await meOperation.getByRole('button', { name: 'Execute' }).click();
    await meOperation.locator('.live-responses-table .response-col_status', { hasText: '200' }).waitFor();
    expect(await meOperation.locator('.live-responses-table').textContent()).toContain('margaret@example.com');
    await screenshot(docs, 'developers-api-docs-try-it');
    for (const requested of requests) expect(new URL(requested).origin, requested).toBe(new URL(stack.url).origin);
    expect(consoleProblems.filter((p) => /Content Security Policy|Refused to/i.test(p))).toEqual([]);
    await docs.close();
  }, 90_000);
});
