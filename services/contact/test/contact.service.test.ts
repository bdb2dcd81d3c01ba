import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresConfigured, startServiceForTest, type TestDatabaseKind } from '@leadforge/testing';
import { createMemoryBus } from '@leadforge/kit/events';
import type { RunningService } from '@leadforge/kit/service';
import type { Bus } from '@leadforge/kit/events';
import { GATEWAY_PROOF_HEADER } from '@leadforge/kit/http';
import type { EventEnvelope } from '@leadforge/contracts';
import contactService from '../src/index.ts';
import { startSiteVerifyStandIn } from './support/siteverifyStandIn.ts';

const kinds: TestDatabaseKind[] = ['pglite', 'postgres'];
const FAILED = 'reCAPTCHA verification failed. Please try again.';

function caller(base: () => string) {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base()}${path}`, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
}

/**
 * Each test speaks from its own address (the gateway's X-Forwarded-For), so rate limits do not mix,
 * not even across runs when the counters live in Redis (REDIS_URL).
 */
const run = crypto.randomBytes(4).toString('hex');
let lastIp = 0;
/** A service believes X-Forwarded-For on loopback only from the gateway, which proves itself with the internal token. */
let gatewayProof = '';
const fromIp = () => ({ 'x-forwarded-for': `2001:db8:${run.slice(0, 4)}:${run.slice(4)}::${(++lastIp).toString(16)}`, [GATEWAY_PROOF_HEADER]: gatewayProof });

for (const kind of kinds) {
  describe.skipIf(kind === 'postgres' && !postgresConfigured)(`contact service with reCAPTCHA on ${kind}${kind === 'postgres' && !postgresConfigured ? ' (skipped: no PostgreSQL; apt-get install -y postgresql)' : ''}`, () => {
    let svc: RunningService;
    let bus: Bus;
    let google: Awaited<ReturnType<typeof startSiteVerifyStandIn>>;
    const announced: EventEnvelope[] = [];
    const call = caller(() => svc.url);
    const message = (token?: string, extra: object = {}) => ({ name: 'Grace Hopper', email: 'grace@example.com', message: 'Do you cover Lisbon?', ...(token ? { recaptcha_token: token } : {}), ...extra });
    const stored = () => svc.ctx.db('contact_submissions').count({ n: '*' }).then(([row]) => Number(row.n));

    beforeAll(async () => {
      google = await startSiteVerifyStandIn();
      bus = createMemoryBus();
      await bus.subscribe({ group: 'test.admin-read-model', topics: ['contact.submission'], handler: async ({ envelope }) => { announced.push(envelope); } });
      svc = await startServiceForTest(contactService, {
        kind,
        bus,
        env: { RECAPTCHA_SITE_KEY: google.siteKey, RECAPTCHA_SECRET: google.secret, RECAPTCHA_VERIFY_URL: google.url, PUBLIC_URL: 'https://leadforge.example', CONTACT_PER_IP_PER_HOUR: '5', RECAPTCHA_HOSTNAMES: '' },
      });
      gatewayProof = svc.ctx.config.internalToken;
    });
    afterAll(async () => {
      await svc?.stop();
      await bus?.close();
      await google?.close();
    });

    it('tells the SPA which robot check to draw', async () => {
      expect(await call('GET', '/api/contact/config')).toEqual({ status: 200, body: { provider: 'google', site_key: google.siteKey, test_mode: false } });
    });

    it('stores a message with a valid token and announces it for the admin panel', async () => {
      const token = google.issue('leadforge.example');
      const from = fromIp();
      const res = await call('POST', '/api/contact', message(token, { name: '  Grace Hopper ', email: ' Grace@Example.com' }), { ...from, 'user-agent': 'test-agent' });
      expect(res).toEqual({ status: 201, body: { success: true, submission_id: expect.any(String) } });
      expect(google.requests.at(-1)).toEqual({ secret: google.secret, response: token, remoteip: from['x-forwarded-for'] });

      const row = await svc.ctx.db('contact_submissions').where({ id: res.body.submission_id }).first();
      expect(row).toMatchObject({ name: 'Grace Hopper', email: 'grace@example.com', message: 'Do you cover Lisbon?', remote_ip: from['x-forwarded-for'], user_agent: 'test-agent', recaptcha_hostname: 'leadforge.example' });
      await expect.poll(() => announced.find((e) => e.key === res.body.submission_id), { timeout: 5000 }).toBeDefined();
      const event = announced.find((e) => e.key === res.body.submission_id)!;
      expect(event).toMatchObject({ type: 'contact.submitted', data: { submission_id: res.body.submission_id, name: 'Grace Hopper', email: 'grace@example.com', message: 'Do you cover Lisbon?', submitted_at: new Date(row.submitted_at).toISOString() } });
    });

    it('refuses missing, failed, reused, expired and foreign-site tokens and stores nothing', async () => {
      const before = await stored();
      const headers = fromIp();
      expect(await call('POST', '/api/contact', message(undefined), headers)).toEqual({ status: 400, body: { detail: 'Please complete the reCAPTCHA verification', code: 'recaptcha_missing' } });
      expect(await call('POST', '/api/contact', message('   '), headers)).toEqual({ status: 400, body: { detail: 'Please complete the reCAPTCHA verification', code: 'recaptcha_missing' } });
      expect(await call('POST', '/api/contact', message('made-up-token'), headers)).toEqual({ status: 400, body: { detail: FAILED, code: 'recaptcha_invalid' } });
      expect(await call('POST', '/api/contact', message(google.issue('evil.example')), headers)).toEqual({ status: 400, body: { detail: FAILED, code: 'recaptcha_wrong_hostname' } });
      expect(await stored()).toBe(before);

      const token = google.issue('leadforge.example');
      expect((await call('POST', '/api/contact', message(token), fromIp())).status).toBe(201);
      const checks = google.requests.length;
      expect(await call('POST', '/api/contact', message(token), fromIp())).toEqual({ status: 400, body: { detail: FAILED, code: 'recaptcha_reused' } });
      expect(google.requests.length).toBe(checks);
      expect(await stored()).toBe(before + 1);
    });

    it('takes one message for a token sent many times at once', async () => {
      const before = await stored();
      const token = google.issue('leadforge.example');
      const results = await Promise.all(Array.from({ length: 5 }, () => call('POST', '/api/contact', message(token), fromIp())));
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      for (const refused of results.filter((r) => r.status !== 201)) {
        expect(refused.status).toBe(400);
        expect(refused.body.detail).toBe(FAILED);
        expect(['recaptcha_reused', 'recaptcha_expired_or_duplicate']).toContain(refused.body.code);
      }
      expect(await stored()).toBe(before + 1);
    });

    it('validates the fields with the spec\'s sentences and caps sizes with a clear 400', async () => {
      const headers = fromIp();
      const token = google.issue('leadforge.example');
      expect((await call('POST', '/api/contact', { email: 'a@example.com', message: 'hi', recaptcha_token: token }, headers)).body.detail).toBe('Please fill in all required fields');
      expect((await call('POST', '/api/contact', message(token, { message: '   ' }), headers)).body.detail).toBe('Please fill in all required fields');
      expect((await call('POST', '/api/contact', message(token, { email: 'not-an-email' }), headers)).body.detail).toBe('Please enter a valid email address');
      const huge = await call('POST', '/api/contact', message(token, { message: 'x'.repeat(50 * 1024) }), fromIp());
      expect(huge).toEqual({ status: 400, body: { detail: 'Message is too long (at most 10,000 characters)', code: 'invalid_request' } });
      const enormous = await call('POST', '/api/contact', message(token, { message: 'x'.repeat(300 * 1024) }), fromIp());
      expect(enormous).toMatchObject({ status: 413, body: { detail: 'Request body is too large' } });
      expect(google.requests.some((r) => r.response === token)).toBe(false);
    });

    it('says the check could not be verified when siteverify is down, and stores nothing', async () => {
      const before = await stored();
      google.state.down = true;
      try {
        const res = await call('POST', '/api/contact', message(google.issue('leadforge.example')), fromIp());
        expect(res).toEqual({ status: 503, body: { detail: 'The robot check could not be verified right now. Please try again in a minute.', code: 'recaptcha_unavailable' } });
      } finally {
        google.state.down = false;
      }
      expect(await stored()).toBe(before);
    });

    it('rate-limits each address with 429 and a detail', async () => {
      const headers = fromIp();
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await call('POST', '/api/contact', message('made-up'), headers)).status);
      expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
      const limited = await call('POST', '/api/contact', message(google.issue('leadforge.example')), headers);
      expect(limited.status).toBe(429);
      expect(limited.body.detail).toMatch(/^Too many requests; try again in \d+ seconds?$/);
    });
  });
}

describe('contact service in local mode without reCAPTCHA keys', () => {
  let svc: RunningService;
  let bus: Bus;
  const call = caller(() => svc.url);
  const localToken = () => `local-test.${crypto.randomBytes(16).toString('hex')}`;

  beforeAll(async () => {
    bus = createMemoryBus();
    svc = await startServiceForTest(contactService, { kind: 'pglite', bus, env: { RECAPTCHA_SITE_KEY: '', RECAPTCHA_SECRET: '' } });
  });
  afterAll(async () => {
    await svc?.stop();
    await bus?.close();
  });

  it('offers the built-in test check and accepts each of its tokens once', async () => {
    expect((await call('GET', '/api/contact/config')).body).toEqual({ provider: 'local', site_key: '', test_mode: true });
    const token = localToken();
    const body = { name: 'Ada', email: 'ada@example.com', message: 'Hello', recaptcha_token: token };
    const from = fromIp();
    expect((await call('POST', '/api/contact', body, from)).status).toBe(201);
    expect((await call('POST', '/api/contact', body, from)).body).toEqual({ detail: FAILED, code: 'recaptcha_reused' });
    expect((await call('POST', '/api/contact', { ...body, recaptcha_token: 'not-from-the-widget' }, from)).body).toEqual({ detail: FAILED, code: 'recaptcha_invalid' });
  });
});
