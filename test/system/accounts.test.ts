import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalStack, type LocalStackProcess } from '../support/localStack.ts';
import { apiClient, bearer } from '../support/api.ts';
import { readMailbox, waitForMail } from '@leadforge/testing';

const RESET_ANSWER = 'If an account exists for this email, we have sent a link to reset its password. It works for one hour.';

describe('accounts through the gateway: password reset by email, change password, deletion', () => {
  let stack: LocalStackProcess;
  let api: ReturnType<typeof apiClient>;
  let mailDir: string;

  beforeAll(async () => {
    stack = await startLocalStack();
    api = apiClient(stack.url);
    mailDir = path.join(stack.dataDir, 'mail');
  }, 240_000);
  afterAll(async () => { await stack?.stop(); });

  /** The link's path and query, followed on this stack (PUBLIC_URL names it `localhost`). */
  const onStack = (link: string) => { const u = new URL(link); return `${u.pathname}${u.search}`; };

  it('emails a reset link without telling who has an account; the reset ends earlier sessions in every service', async () => {
    const reg = await api('POST', '/api/auth/register', { name: 'Katherine Johnson', email: 'katherine@example.com', password: 'orbit1962' });
    expect(reg.status).toBe(201);
    const before = reg.body.access_token as string;
    const { body: { key: planted } } = await api('POST', '/api/api-keys', { name: 'planted' }, bearer(before));
    expect((await api('GET', '/api/lead-searches', undefined, { 'x-api-key': planted })).status).toBe(200);

    const known = await api('POST', '/api/auth/password-reset', { email: 'Katherine@Example.com' });
    const unknown = await api('POST', '/api/auth/password-reset', { email: 'nobody@example.com' });
    expect(known.status).toBe(202);
    expect(known.body).toEqual({ message: RESET_ANSWER });
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: known.status, body: known.body });

    const mail = await waitForMail(mailDir, 'katherine@example.com', /^Reset your Leadforge password$/);
    expect(mail.text).toContain('Hello Katherine Johnson,');
    expect(mail.html).toContain('<a href="http://localhost:');
    const link = mail.links.find((l) => l.includes('/reset-password?token='))!;
    expect(new URL(link).origin).toBe(new URL(stack.url).origin.replace('127.0.0.1', 'localhost'));
    expect((await readMailbox(mailDir)).some((m) => m.to.includes('nobody@example.com'))).toBe(false);
    expect(stack.output()).toContain("no SMTP_URL: auth's emails are written as .eml files, not sent");
    await expect.poll(() => stack.output()).toContain('EMAIL NOT SENT (no SMTP_URL)');

    // The link opens the SPA's reset page.
    const page = await fetch(`${stack.url}${onStack(link)}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');

    const token = new URL(link).searchParams.get('token')!;
    const confirm = await api('POST', '/api/auth/password-reset/confirm', { token, password: 'apollo1969' });
    expect(confirm).toMatchObject({ status: 200, body: { message: 'Your password has been reset. Please log in with your new password. 1 API key was revoked.', api_keys_revoked: 1 } });
    // The key made with the earlier session goes with it, at the edge and in the services.
    expect(await api('GET', '/api/lead-searches', undefined, { 'x-api-key': planted })).toMatchObject({ status: 401, body: { code: 'invalid_api_key' } });
    expect((await api('POST', '/api/auth/password-reset/confirm', { token, password: 'apollo1970' })).status).toBe(400);

    // Tokens issued before the reset: refused by auth and by billing (which asks auth for the standing).
    expect(await api('GET', '/api/auth/me', undefined, bearer(before))).toMatchObject({ status: 401, body: { code: 'session_ended' } });
    expect(await api('GET', '/api/payments/history', undefined, bearer(before))).toMatchObject({ status: 401, body: { code: 'session_ended' } });

    expect((await api('POST', '/api/auth/login', { email: 'katherine@example.com', password: 'orbit1962' })).status).toBe(401);
    const login = await api('POST', '/api/auth/login', { email: 'katherine@example.com', password: 'apollo1969' });
    expect(login.status).toBe(200);
    expect((await api('GET', '/api/payments/history', undefined, bearer(login.body.access_token))).status).toBe(200);
    await waitForMail(mailDir, 'katherine@example.com', /^Your Leadforge password was reset$/);
  });

  it('changes the password when signed in with the current one, and emails a notice', async () => {
    const reg = await api('POST', '/api/auth/register', { name: 'Dorothy Vaughan', email: 'dorothy@example.com', password: 'fortran1961' });
    const token = reg.body.access_token as string;
    expect((await api('POST', '/api/auth/password', { current_password: 'fortran1961', new_password: 'x' }, bearer(token))).status).toBe(400);
    const wrong = await api('POST', '/api/auth/password', { current_password: 'nope-nope', new_password: 'cobol1962' }, bearer(token));
    expect(wrong).toMatchObject({ status: 400, body: { detail: 'Your current password is incorrect' } });
    const anonymous = await api('POST', '/api/auth/password', { current_password: 'fortran1961', new_password: 'cobol1962' });
    expect(anonymous.status).toBe(401);

    const changed = await api('POST', '/api/auth/password', { current_password: 'fortran1961', new_password: 'cobol1962' }, bearer(token));
    expect(changed.status).toBe(200);
    expect((await api('GET', '/api/auth/me', undefined, bearer(changed.body.access_token))).status).toBe(200);
    expect((await api('GET', '/api/auth/me', undefined, bearer(token))).status).toBe(401);
    const notice = await waitForMail(mailDir, 'dorothy@example.com', /^Your Leadforge password was changed$/);
    expect(notice.links.map(onStack)).toContain('/forgot-password');

    const renamed = await api('PATCH', '/api/auth/me', { name: 'Dorothy J. Vaughan' }, bearer(changed.body.access_token));
    expect(renamed).toMatchObject({ status: 200, body: { name: 'Dorothy J. Vaughan' } });
  });

  it('emails a receipt after a purchase through the test checkout', async () => {
    const reg = await api('POST', '/api/auth/register', { name: 'Christine Darden', email: 'christine@example.com', password: 'sonic1983' });
    const token = reg.body.access_token as string;
    const created = await api('POST', '/api/payments/create', { plan_id: 'starter', return_url: 'http://localhost/credits', cancel_url: 'http://localhost/credits' }, bearer(token));
    const approved = await api('POST', `/api/payments/test-checkout/${created.body.payment_id}/approve`);
    const executed = await api('POST', '/api/payments/execute', { payment_id: created.body.payment_id, payer_id: approved.body.payer_id }, bearer(token));
    expect(executed.status).toBe(200);

    const receipt = await waitForMail(mailDir, 'christine@example.com', /^Your Leadforge receipt: 100 credits$/);
    expect(receipt.text).toContain('Plan: Starter');
    expect(receipt.text).toContain('Amount paid: $19.00 USD');
    expect(receipt.links.map(onStack)).toContain('/credits');
  });

  it('deletes an account: once DELETE answers, no service accepts its token or its key', async () => {
    const reg = await api('POST', '/api/auth/register', { name: 'Mae Jemison', email: 'mae@example.com', password: 'endeavour92' });
    const token = reg.body.access_token as string;
    const { body: { key } } = await api('POST', '/api/api-keys', { name: 'Mission control' }, bearer(token));
    const withKey = { 'x-api-key': key as string };
    // Every service has just seen the user active (a standing cache would keep that answer).
    expect((await api('GET', '/api/payments/history', undefined, bearer(token))).status).toBe(200);
    expect((await api('GET', '/api/lead-searches', undefined, bearer(token))).status).toBe(200);
    expect((await api('GET', '/api/affiliate/stats', undefined, bearer(token))).status).toBe(200);
    expect((await api('GET', '/api/lead-searches', undefined, withKey)).status).toBe(200);

    const deleted = await api('DELETE', '/api/account', { password: 'endeavour92' }, bearer(token));
    expect(deleted).toMatchObject({ status: 200, body: { message: 'Your account has been deleted.' } });
    for (const [method, path, body] of [
      ['GET', '/api/auth/me'], ['GET', '/api/payments/history'], ['GET', '/api/lead-searches'], ['GET', '/api/affiliate/stats'],
      ['POST', '/api/lead-searches', { industry: 'Dentists', location: 'Houston', quantity: 5 }],
      ['POST', '/api/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['lead_search.completed'] }],
    ] as const) {
      expect((await api(method, path, body, bearer(token))).status, `${method} ${path} with the token`).toBe(401);
    }
    expect(await api('GET', '/api/lead-searches', undefined, withKey)).toMatchObject({ status: 401, body: { code: 'invalid_api_key' } });
    expect(await api('POST', '/api/lead-searches', { industry: 'Dentists', location: 'Houston', quantity: 5 }, withKey)).toMatchObject({ status: 401, body: { code: 'invalid_api_key' } });
    expect((await api('POST', '/api/auth/login', { email: 'mae@example.com', password: 'endeavour92' })).status).toBe(401);
    await waitForMail(mailDir, 'mae@example.com', /^Your Leadforge account was deleted$/);
  });

  it('rate-limits reset requests per email with 429 and a detail', async () => {
    const statuses: number[] = [];
    let last: { status: number; body: { detail?: string } } | undefined;
    for (let i = 0; i < 4; i++) {
      last = await api('POST', '/api/auth/password-reset', { email: 'often@example.com' });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([202, 202, 202, 429]);
    expect(last!.body.detail).toMatch(/^Too many requests; try again in \d+ seconds?$/);
  });
});
