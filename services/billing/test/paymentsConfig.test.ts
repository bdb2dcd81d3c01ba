import { describe, expect, it } from 'vitest';
import { loadPaymentsConfig } from '../src/config.ts';

describe('payments configuration', () => {
  it('uses the built-in test checkout locally when no PayPal credentials are set', () => {
    const config = loadPaymentsConfig({}, false);
    expect(config).toMatchObject({ testCheckout: true, sandbox: undefined, live: undefined, timeoutMs: 10_000, retries: 1 });
  });

  it('refuses to start in production without PayPal credentials: the test checkout is local only', () => {
    expect(() => loadPaymentsConfig({}, true)).toThrow('Configuration error: PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET (or PAYPAL_LIVE_CLIENT_ID and PAYPAL_LIVE_CLIENT_SECRET) are required in production: the built-in test checkout is for local use only');
  });

  it('needs the webhook id in production, and id and secret together everywhere', () => {
    expect(() => loadPaymentsConfig({ PAYPAL_LIVE_CLIENT_ID: 'id', PAYPAL_LIVE_CLIENT_SECRET: 'secret' }, true)).toThrow(/PAYPAL_LIVE_WEBHOOK_ID is required/);
    expect(() => loadPaymentsConfig({ PAYPAL_CLIENT_ID: 'id' }, false)).toThrow('Configuration error: PAYPAL_CLIENT_SECRET is required when PAYPAL_CLIENT_ID is set');
    expect(() => loadPaymentsConfig({ PAYPAL_LIVE_CLIENT_SECRET: 's' }, false)).toThrow('Configuration error: PAYPAL_LIVE_CLIENT_ID is required when PAYPAL_LIVE_CLIENT_SECRET is set');
    expect(() => loadPaymentsConfig({ PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 's', PAYPAL_API_BASE: 'api.paypal' }, false)).toThrow(/PAYPAL_API_BASE has a bad value/);
  });

  it('reads sandbox and live credentials with PayPal\'s default hosts', () => {
    const config = loadPaymentsConfig({
      PAYPAL_CLIENT_ID: 'sb-id', PAYPAL_CLIENT_SECRET: 'sb-secret', PAYPAL_WEBHOOK_ID: 'WH-SB',
      PAYPAL_LIVE_CLIENT_ID: 'live-id', PAYPAL_LIVE_CLIENT_SECRET: 'live-secret', PAYPAL_LIVE_WEBHOOK_ID: 'WH-LIVE',
      PAYPAL_TIMEOUT_MS: '5000', PAYPAL_RETRIES: '2',
    }, true);
    expect(config.testCheckout).toBe(false);
    expect(config.sandbox).toEqual({ mode: 'sandbox', apiBase: 'https://api-m.sandbox.paypal.com', clientId: 'sb-id', clientSecret: 'sb-secret', webhookId: 'WH-SB' });
    expect(config.live).toEqual({ mode: 'live', apiBase: 'https://api-m.paypal.com', clientId: 'live-id', clientSecret: 'live-secret', webhookId: 'WH-LIVE' });
    expect(config).toMatchObject({ timeoutMs: 5000, retries: 2 });
  });
});
