import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/api.ts';
import { fuzzRoutes, type FuzzTokens } from '../support/fuzz.ts';
import { startLocalStack, type LocalStackProcess } from '../support/localStack.ts';
import { registerAdmin } from '../support/verifiedAdmin.ts';

/** Nothing answers here: a request the fuzzer made valid by accident still never leaves the machine. */
const NOWHERE = 'http://127.0.0.1:9';

describe('hostile input never stops the product (npm start)', () => {
  let stack: LocalStackProcess;
  let tokens: FuzzTokens;

  beforeAll(async () => {
    stack = await startLocalStack({
      env: {
        ADMIN_EMAILS: 'fuzz-admin@example.com',
        // Rate limits would answer 429 before the input is looked at: lift them for the fuzzer.
        AUTH_LOGIN_PER_IP_PER_MINUTE: '1000000',
        AUTH_LOGIN_PER_EMAIL_PER_15_MINUTES: '1000000',
        AUTH_REGISTER_PER_IP_PER_HOUR: '1000000',
        CONTACT_PER_IP_PER_HOUR: '1000000',
        AFFILIATE_APPLY_PER_IP_PER_HOUR: '1000000',
        AFFILIATE_VISITS_PER_IP_PER_MINUTE: '1000000',
        BILLING_ORDERS_PER_USER_PER_HOUR: '1000000',
        BILLING_PROMO_ORDERS_PER_IP_PER_HOUR: '1000000',
        NOMINATIM_URL: NOWHERE,
        OVERPASS_URL: NOWHERE,
        DECODO_API_BASE: NOWHERE,
        DECODO_PROXY_CHECK_URL: NOWHERE,
        RECAPTCHA_VERIFY_URL: NOWHERE,
        EMAIL_MX_CHECK: 'false',
        PAYPAL_CLIENT_ID: '',
        PAYPAL_CLIENT_SECRET: '',
      },
    });
    const api = apiClient(stack.url);
    const register = async (email: string) => {
      const res = await api('POST', '/api/auth/register', { name: 'Fuzz', email, password: 'fuzz-password-1' });
      expect(res.status).toBe(201);
      return res.body.access_token as string;
    };
    tokens = { user: await register('fuzz-user@example.com'), admin: (await registerAdmin(api, stack.dataDir, { name: 'Fuzz', email: 'fuzz-admin@example.com', password: 'fuzz-password-1' })).token };
  }, 300_000);
  afterAll(async () => { await stack?.stop(); });

  it('answers every route and every hostile class with a 4xx and a detail, and keeps answering', async () => {
    const report = await fuzzRoutes(stack.url, tokens);
    expect(report.requests).toBeGreaterThan(1000);
    // Most hostile input must get past the token checks and be refused for what it is.
    expect(report.statuses[400]).toBeGreaterThan(report.requests / 2);
    expect(report.failures).toEqual([]);
  }, 600_000);
});
