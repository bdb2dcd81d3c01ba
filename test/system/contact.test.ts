import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@leadforge/testing';
import { startLocalStack, type LocalStackProcess } from '../support/localStack.ts';
import { apiClient, bearer, type ApiResponse } from '../support/api.ts';
import { startSiteVerifyStandIn } from '../../services/contact/test/support/siteverifyStandIn.ts';
import { registerAdmin } from '../support/verifiedAdmin.ts';

const FAILED = 'reCAPTCHA verification failed. Please try again.';
const PER_HOUR = 9;

describe('the contact form through the gateway, with reCAPTCHA pointed at a siteverify stand-in', () => {
  let stack: LocalStackProcess;
  let api: ReturnType<typeof apiClient>;
  let google: Awaited<ReturnType<typeof startSiteVerifyStandIn>>;
  /** Every POST /api/contact counts toward the per-address limit (all of them come from 127.0.0.1 here). */
  let contactPosts = 0;
  const send = (body: unknown): Promise<ApiResponse> => {
    contactPosts += 1;
    return api('POST', '/api/contact', body);
  };
  const message = (token?: string, extra: object = {}) => ({ name: 'Grace Hopper', email: 'grace@example.com', message: 'Do you cover Lisbon?', ...(token ? { recaptcha_token: token } : {}), ...extra });

  beforeAll(async () => {
    google = await startSiteVerifyStandIn();
    stack = await startLocalStack({
      env: {
        RECAPTCHA_SITE_KEY: google.siteKey,
        RECAPTCHA_SECRET: google.secret,
        RECAPTCHA_VERIFY_URL: google.url,
        CONTACT_PER_IP_PER_HOUR: String(PER_HOUR),
        ADMIN_EMAILS: 'contact-admin@example.com',
      },
    });
    api = apiClient(stack.url);
  }, 180_000);
  afterAll(async () => {
    await stack?.stop();
    await google?.close();
  });

  it('gives the SPA the site key', async () => {
    expect(await api('GET', '/api/contact/config')).toMatchObject({ status: 200, body: { provider: 'google', site_key: google.siteKey, test_mode: false } });
  });

  it('stores a message with a valid token, and the admin panel lists it', async () => {
    const token = google.issue('localhost');
    const res = await send(message(token, { message: `Hello from the system test ${Date.now()}` }));
    expect(res).toMatchObject({ status: 201, body: { success: true } });
    expect(google.requests.at(-1)).toMatchObject({ secret: google.secret, response: token, remoteip: expect.stringMatching(/127\.0\.0\.1|::1/) });

    const admin = await registerAdmin(api, stack.dataDir, { name: 'Contact Admin', email: 'contact-admin@example.com', password: 'secret123' });
    const read = () => api('GET', '/api/admin/enhanced-stats?include=contact_submissions', undefined, bearer(admin.token));
    const listed: { id: string }[] = await waitFor(async () => (await read()).body.contact_submissions ?? [], {
      until: (submissions: { id: string }[]) => submissions.some((s) => s.id === res.body.submission_id),
      what: 'the message in the admin panel',
    });
    expect(listed.find((s) => s.id === res.body.submission_id)).toMatchObject({ name: 'Grace Hopper', email: 'grace@example.com', message: expect.stringContaining('Hello from the system test') });
  });

  it('refuses missing, failed and reused tokens with the spec\'s messages', async () => {
    expect((await send(message())).body).toEqual({ detail: 'Please complete the reCAPTCHA verification', code: 'recaptcha_missing' });
    expect((await send(message('never-issued'))).body).toEqual({ detail: FAILED, code: 'recaptcha_invalid' });
    const token = google.issue('localhost');
    expect((await send(message(token))).status).toBe(201);
    expect(await send(message(token))).toMatchObject({ status: 400, body: { detail: FAILED, code: 'recaptcha_reused' } });
  });

  it('refuses a 50 KB message with a clear 400', async () => {
    const res = await send(message(google.issue('localhost'), { message: 'x'.repeat(50 * 1024) }));
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { detail: 'Message is too long (at most 10,000 characters)', code: 'invalid_request' } });
  });

  it('answers 429 once an address has sent too many', async () => {
    expect(contactPosts).toBeLessThan(PER_HOUR);
    const statuses: number[] = [];
    while (contactPosts <= PER_HOUR) statuses.push((await send(message('never-issued'))).status);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((s) => s === 400)).toBe(true);
    const limited = await send(message(google.issue('localhost')));
    expect(limited.status).toBe(429);
    expect(limited.body.detail).toMatch(/^Too many requests; try again in \d+ seconds?$/);
  });
});
