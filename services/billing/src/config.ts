import { ConfigError, readInt, readVar } from '@leadforge/kit/config';

export interface PaypalCredentials {
  mode: 'sandbox' | 'live';
  /** REST base, e.g. https://api-m.sandbox.paypal.com (tests point it at a stand-in). */
  apiBase: string;
  clientId: string;
  clientSecret: string;
  /** The webhook id PayPal's dashboard shows for our listener; needed to verify deliveries. */
  webhookId?: string;
}

/** What billing reads from the environment, checked once at start. */
export interface BillingConfig {
  payments: PaymentsConfig;
  /** How long the balance shown right after signing up waits for the signup grant (BILLING_SIGNUP_WAIT_MS). */
  signupWaitMs: number;
  limits: { ordersPerUserPerHour: number; promoOrdersPerIpPerHour: number };
}

export interface PaymentsConfig {
  sandbox?: PaypalCredentials;
  live?: PaypalCredentials;
  /** No PayPal credentials in local mode: the built-in test checkout takes PayPal's place. */
  testCheckout: boolean;
  timeoutMs: number;
  retries: number;
}

const URL_PATTERN = /^https?:\/\/[^\s]+$/;

/** One credentials set: id and secret both or neither, named in the error. */
function readCredentials(env: NodeJS.ProcessEnv, mode: 'sandbox' | 'live', production: boolean): PaypalCredentials | undefined {
  const prefix = mode === 'sandbox' ? 'PAYPAL_' : 'PAYPAL_LIVE_';
  const clientId = readVar(env, `${prefix}CLIENT_ID`);
  const clientSecret = readVar(env, `${prefix}CLIENT_SECRET`);
  const apiBase = readVar(env, `${prefix}API_BASE`, {
    default: mode === 'sandbox' ? 'https://api-m.sandbox.paypal.com' : 'https://api-m.paypal.com',
    pattern: URL_PATTERN,
    hint: 'an http(s) URL such as https://api-m.paypal.com',
  })!.replace(/\/$/, '');
  if (!clientId && !clientSecret) return undefined;
  if (!clientId) throw new ConfigError(`${prefix}CLIENT_ID`, `is required when ${prefix}CLIENT_SECRET is set`);
  if (!clientSecret) throw new ConfigError(`${prefix}CLIENT_SECRET`, `is required when ${prefix}CLIENT_ID is set`);
  const webhookId = readVar(env, `${prefix}WEBHOOK_ID`, {
    required: production,
    hint: 'the id PayPal shows for the webhook listening on /api/payments/webhook; without it deliveries cannot be verified',
  });
  return { mode, apiBase, clientId, clientSecret, webhookId };
}

/**
 * PayPal credentials: PAYPAL_* for sandbox, PAYPAL_LIVE_* for live (PayPal gives each its own app).
 * Without any, local mode uses the built-in test checkout; production refuses to start.
 */
export function loadPaymentsConfig(env: NodeJS.ProcessEnv, production: boolean): PaymentsConfig {
  const sandbox = readCredentials(env, 'sandbox', production);
  const live = readCredentials(env, 'live', production);
  if (production && !sandbox && !live) {
    throw new ConfigError('PAYPAL_CLIENT_ID', 'and PAYPAL_CLIENT_SECRET (or PAYPAL_LIVE_CLIENT_ID and PAYPAL_LIVE_CLIENT_SECRET) are required in production: the built-in test checkout is for local use only');
  }
  return {
    sandbox,
    live,
    testCheckout: !sandbox && !live,
    timeoutMs: readInt(env, 'PAYPAL_TIMEOUT_MS', 10_000, 100, 120_000),
    retries: readInt(env, 'PAYPAL_RETRIES', 1, 0, 5),
  };
}

/** `production`: no stand-in for a paid provider (the kit's requireRealProviders). */
export function loadBillingConfig(env: NodeJS.ProcessEnv, production: boolean): BillingConfig {
  return {
    payments: loadPaymentsConfig(env, production),
    signupWaitMs: readInt(env, 'BILLING_SIGNUP_WAIT_MS', 600, 0, 5000),
    limits: {
      ordersPerUserPerHour: readInt(env, 'BILLING_ORDERS_PER_USER_PER_HOUR', 30, 1),
      promoOrdersPerIpPerHour: readInt(env, 'BILLING_PROMO_ORDERS_PER_IP_PER_HOUR', 30, 1),
    },
  };
}
