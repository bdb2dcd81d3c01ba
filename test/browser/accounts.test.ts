import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startLocalStack, type LocalStackProcess } from '../support/localStack.ts';
import { chromiumAvailable, launchBrowser, screenshot, SHOTS_DIR, downloadedBytes } from '../support/browser.ts';
import { waitForMail } from '@leadforge/testing';

describe.skipIf(!chromiumAvailable)('accounts in the browser: forgot password, reset, settings (needs Debian chromium at /usr/bin/chromium)', () => {
  let stack: LocalStackProcess;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startLocalStack(), launchBrowser()]);
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const url = (p: string) => `${stack.url}${p}`;

  const signIn = async (email: string, password: string) => {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign In' }).click();
  };

  it('resets a forgotten password from the login page through the emailed link', async () => {
    const reg = await fetch(url('/api/auth/register'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Mary Jackson', email: 'mary@example.com', password: 'wind-tunnel' }),
    });
    expect(reg.status).toBe(201);
    // A key made with the session before the reset: the reset revokes it.
    const { access_token } = await reg.json();
    const { key } = await (await fetch(url('/api/api-keys'), { method: 'POST', headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'planted' }) })).json();

    await page.goto(url('/login'));
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(url('/forgot-password'));
    await page.getByLabel('Email').fill('mary@example.com');
    await screenshot(page, 'accounts-forgot-password');
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page.getByRole('status').filter({ hasText: 'If an account exists for this email' }).waitFor();
    await screenshot(page, 'accounts-forgot-password-sent');

    const mail = await waitForMail(path.join(stack.dataDir, 'mail'), 'mary@example.com', /^Reset your Leadforge password$/);
    const link = new URL(mail.links.find((l) => l.includes('/reset-password?token='))!);
    await page.goto(url(`${link.pathname}${link.search}`));
    await page.getByLabel('New password', { exact: true }).fill('supersonic');
    await page.getByLabel('Confirm new password').fill('supersonik');
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await page.getByRole('alert').filter({ hasText: 'Passwords do not match' }).waitFor();
    await page.getByLabel('Confirm new password').fill('supersonic');
    await screenshot(page, 'accounts-reset-password');
    await page.getByRole('button', { name: 'Set New Password' }).click();

    await page.waitForURL(url('/login'));
    await page.getByRole('status').filter({ hasText: 'Your password has been reset. Please log in with your new password. 1 API key was revoked.' }).waitFor();
    expect((await fetch(url('/api/auth/me'), { headers: { 'x-api-key': key } })).status).toBe(401);
    await screenshot(page, 'accounts-login-after-reset');
    await signIn('mary@example.com', 'wind-tunnel');
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    await signIn('mary@example.com', 'supersonic');
    await page.waitForURL(url('/dashboard'));
  });

  it('changes the password on the settings page, keeping the API keys or not; the old one no longer works', async () => {
    await page.getByTestId('user-menu-button').click();
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL(url('/settings'));
    await page.getByRole('heading', { name: 'Account settings' }).waitFor();

    await page.getByLabel('Name').fill('Mary W. Jackson');
    await page.getByRole('button', { name: 'Save Name' }).click();
    await page.getByRole('status').filter({ hasText: 'Your name has been saved.' }).waitFor();
    await page.getByTestId('user-menu-button').filter({ hasText: 'Mary W. Jackson' }).waitFor();

    const session = { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('token'))}`, 'content-type': 'application/json' };
    const { key } = await (await fetch(url('/api/api-keys'), { method: 'POST', headers: session, body: JSON.stringify({ name: 'CRM sync' }) })).json();
    const keyStatus = async () => (await fetch(url('/api/auth/me'), { headers: { 'x-api-key': key } })).status;
    const password = page.getByRole('region', { name: 'Password' });
    const changeTo = async (current: string, next: string) => {
      await page.getByLabel('Current password').fill(current);
      await page.getByLabel('New password', { exact: true }).fill(next);
      await page.getByLabel('Confirm new password').fill(next);
      await page.getByRole('button', { name: 'Change Password' }).click();
    };

    await changeTo('not-my-password', 'engineer57');
    await page.getByRole('alert').filter({ hasText: 'Your current password is incorrect' }).waitFor();
    await password.getByLabel('Keep my API keys').check();
    await changeTo('supersonic', 'engineer57');
    await password.getByRole('status').filter({ hasText: 'Your password has been changed. Every other session has been signed out. Your API keys were kept.' }).waitFor();
    expect(await keyStatus()).toBe(200);
    // The box is unticked again: keeping keys is a choice made each time.
    expect(await password.getByLabel('Keep my API keys').isChecked()).toBe(false);
    await changeTo('engineer57', 'engineer58');
    await password.getByRole('status').filter({ hasText: 'Your password has been changed. Every other session has been signed out. 1 API key was revoked.' }).waitFor();
    expect(await keyStatus()).toBe(401);
    // The sticky header would otherwise sit mid-page in the full-page picture.
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'accounts-settings-password-changed');

    // Still signed in here with the new session: a reload keeps the page.
    await page.reload();
    await page.getByRole('heading', { name: 'Account settings' }).waitFor();
    expect(page.url()).toBe(url('/settings'));

    await page.getByTestId('user-menu-button').click();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(url('/'));
    await page.goto(url('/login'));
    await signIn('mary@example.com', 'supersonic');
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    await signIn('mary@example.com', 'engineer58');
    await page.waitForURL(url('/dashboard'));
  });

  it('downloads the user\'s data as one JSON file', async () => {
    // A purchase to find in the file, bought through the test checkout as the credits page does.
    const auth = { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('token'))}`, 'content-type': 'application/json' };
    const created = await (await fetch(url('/api/payments/create'), { method: 'POST', headers: auth, body: JSON.stringify({ plan_id: 'starter', return_url: url('/credits'), cancel_url: url('/credits') }) })).json();
    const approved = await (await fetch(url(`/api/payments/test-checkout/${created.payment_id}/approve`), { method: 'POST' })).json();
    const executed = await fetch(url('/api/payments/execute'), { method: 'POST', headers: auth, body: JSON.stringify({ payment_id: created.payment_id, payer_id: approved.payer_id }) });
    expect(executed.status).toBe(200);

    await page.goto(url('/settings'));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download My Data' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^leadforge-data-\d{4}-\d{2}-\d{2}\.json$/);
    const data = JSON.parse((await downloadedBytes(download)).toString('utf8'));
    expect(data.account).toMatchObject({ email: 'mary@example.com', name: 'Mary W. Jackson' });
    expect(data.billing.purchases).toEqual([expect.objectContaining({ plan_id: 'starter', status: 'completed' })]);
    expect(data.leads.lead_searches).toEqual([]);
    expect(data.contact.contact_messages).toEqual([]);
    expect(data.affiliate).toHaveProperty('referral_code');
  });

  it('turns the "your leads are ready" email off and keeps it off', async () => {
    await page.goto(url('/settings'));
    const emails = page.getByRole('region', { name: 'Emails' });
    const toggle = emails.getByLabel('Email me when a search that takes more than a minute is ready');
    await expect.poll(() => toggle.isEnabled()).toBe(true);
    expect(await toggle.isChecked()).toBe(true);
    await toggle.uncheck();
    await emails.getByRole('status').filter({ hasText: 'We will not email you when a search is ready.' }).waitFor();
    await page.reload();
    await expect.poll(() => toggle.isEnabled()).toBe(true);
    expect(await toggle.isChecked()).toBe(false);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'accounts-settings-emails');
  });

  it('deletes the account from the settings page after a confirmation dialog; the address may sign up again', async () => {
    await page.goto(url('/settings'));
    const danger = page.getByRole('region', { name: 'Delete account' });
    await danger.getByLabel('Your password').fill('engineer58');
    await danger.getByRole('button', { name: 'Delete My Account' }).click();
    await danger.getByRole('alert').filter({ hasText: 'tick the box' }).waitFor();
    await danger.getByLabel('I understand that this cannot be undone.').check();

    // The dialog: Cancel keeps everything.
    await danger.getByRole('button', { name: 'Delete My Account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account for good?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Keep My Account' }).click();
    await dialog.waitFor({ state: 'detached' });

    await danger.getByLabel('Your password').fill('wrong-password');
    await danger.getByRole('button', { name: 'Delete My Account' }).click();
    await dialog.getByRole('button', { name: 'Yes, Delete Everything' }).click();
    await danger.getByRole('alert').filter({ hasText: 'Your password is incorrect' }).waitFor();
    await dialog.waitFor({ state: 'detached' });

    await danger.getByLabel('Your password').fill('engineer58');
    await danger.getByRole('button', { name: 'Delete My Account' }).click();
    await dialog.waitFor();
    // What the user sees (the viewport): a full-page picture would show the fixed backdrop on part of the page only.
    await danger.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS_DIR, 'accounts-settings-delete.png') });
    await dialog.getByRole('button', { name: 'Yes, Delete Everything' }).click();

    await page.waitForURL(url('/login'));
    await page.getByRole('status').filter({ hasText: 'Your account has been deleted.' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await signIn('mary@example.com', 'engineer58');
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    await waitForMail(path.join(stack.dataDir, 'mail'), 'mary@example.com', /^Your Leadforge account was deleted$/);

    const again = await fetch(url('/api/auth/register'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Mary Jackson', email: 'mary@example.com', password: 'new-start-1' }),
    });
    expect(again.status).toBe(201);
  });
});
