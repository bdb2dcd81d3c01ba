import { Type, type Static } from 'typebox';
import { collectConfig, readVariables, Variable, type ConfigProblems } from '@leadforge/kit/config';
import { mailConfigFrom, MailVariables, type MailConfig } from '@leadforge/kit/mail';

const webhookNote = 'the id PayPal shows for the webhook listening on /api/payments/webhook; without it deliveries cannot be verified';

/** Every variable billing reads besides the kit's. */
export const BillingVariables = Type.Object({
  // Receipts and refund notices.
  ...MailVariables,
  PAYPAL_CLIENT_ID: Variable.string({ description: 'PayPal sandbox REST app (checkout)', defaultText: 'the built-in test checkout', secret: true, production: 'this pair or the `PAYPAL_LIVE_*` pair', example: 'paypal-client-id' }),
  PAYPAL_CLIENT_SECRET: Variable.string({ description: 'its secret', defaultText: 'unset', secret: true, production: 'with `PAYPAL_CLIENT_ID`', example: 'paypal-client-secret' }),
  PAYPAL_WEBHOOK_ID: Variable.string({ description: webhookNote, defaultText: 'unset', secret: true, production: 'with `PAYPAL_CLIENT_ID`', example: 'WH-SANDBOX' }),
  PAYPAL_API_BASE: Variable.string({ description: 'PayPal sandbox REST base', default: 'https://api-m.sandbox.paypal.com', base: true }),
  PAYPAL_LIVE_CLIENT_ID: Variable.string({ description: 'PayPal live REST app (checkout)', defaultText: 'unset', secret: true }),
  PAYPAL_LIVE_CLIENT_SECRET: Variable.string({ description: 'its secret', defaultText: 'unset', secret: true }),
  PAYPAL_LIVE_WEBHOOK_ID: Variable.string({ description: `${webhookNote} (live)`, defaultText: 'unset', secret: true, production: 'with `PAYPAL_LIVE_CLIENT_ID`' }),
  PAYPAL_LIVE_API_BASE: Variable.string({ description: 'PayPal live REST base', default: 'https://api-m.paypal.com', base: true }),
  PAYPAL_TIMEOUT_MS: Variable.integer({ description: 'timeout of one PayPal request', default: 10_000, minimum: 100, maximum: 120_000 }),
  PAYPAL_RETRIES: Variable.integer({ description: 'retries of a PayPal request that failed on the way', default: 1, minimum: 0, maximum: 5 }),
  BILLING_SIGNUP_WAIT_MS: Variable.integer({ description: 'how long the balance shown right after signing up waits for the signup grant', default: 600, minimum: 0, maximum: 5000 }),
  BILLING_ORDERS_PER_USER_PER_HOUR: Variable.integer({ description: 'checkout orders per user per hour', default: 30, minimum: 1 }),
  BILLING_PROMO_ORDERS_PER_IP_PER_HOUR: Variable.integer({ description: 'promotion orders per address per hour', default: 30, minimum: 1 }),
});
type BillingVariables = Static<typeof BillingVariables>;

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
  mail: MailConfig;
}

export interface PaymentsConfig {
  sandbox?: PaypalCredentials;
  live?: PaypalCredentials;
  /** No PayPal credentials in local mode: the built-in test checkout takes PayPal's place. */
  testCheckout: boolean;
  timeoutMs: number;
  retries: number;
}

/** One credentials set: id and secret both or neither, named in the problem. */
function credentialsOf(vars: BillingVariables, mode: 'sandbox' | 'live', production: boolean, problems: ConfigProblems): PaypalCredentials | undefined {
  const prefix = mode === 'sandbox' ? 'PAYPAL_' : 'PAYPAL_LIVE_';
  const [clientId, clientSecret, webhookId, apiBase] = mode === 'sandbox'
    ? [vars.PAYPAL_CLIENT_ID, vars.PAYPAL_CLIENT_SECRET, vars.PAYPAL_WEBHOOK_ID, vars.PAYPAL_API_BASE]
    : [vars.PAYPAL_LIVE_CLIENT_ID, vars.PAYPAL_LIVE_CLIENT_SECRET, vars.PAYPAL_LIVE_WEBHOOK_ID, vars.PAYPAL_LIVE_API_BASE];
  if (!clientId && !clientSecret) return undefined;
  if (!clientId) problems.add(`${prefix}CLIENT_ID`, `is required when ${prefix}CLIENT_SECRET is set`);
  if (!clientSecret) problems.add(`${prefix}CLIENT_SECRET`, `is required when ${prefix}CLIENT_ID is set`);
  if (production && !webhookId) problems.add(`${prefix}WEBHOOK_ID`, `is required (${webhookNote})`);
  return { mode, apiBase, clientId: clientId ?? '', clientSecret: clientSecret ?? '', webhookId };
}

/**
 * PayPal credentials: PAYPAL_* for sandbox, PAYPAL_LIVE_* for live (PayPal gives each its own app).
 * Without any, local mode uses the built-in test checkout; production refuses to start.
 */
function paymentsConfigOf(vars: BillingVariables, production: boolean, problems: ConfigProblems): PaymentsConfig {
  const sandbox = credentialsOf(vars, 'sandbox', production, problems);
  const live = credentialsOf(vars, 'live', production, problems);
  if (production && !sandbox && !live) {
    problems.add('PAYPAL_CLIENT_ID', 'and PAYPAL_CLIENT_SECRET (or PAYPAL_LIVE_CLIENT_ID and PAYPAL_LIVE_CLIENT_SECRET) are required in production: the built-in test checkout is for local use only');
  }
  return { sandbox, live, testCheckout: !sandbox && !live, timeoutMs: vars.PAYPAL_TIMEOUT_MS, retries: vars.PAYPAL_RETRIES };
}

/** The payments' part alone, every problem thrown together. */
export function loadPaymentsConfig(env: NodeJS.ProcessEnv, production: boolean): PaymentsConfig {
  return collectConfig((problems) => paymentsConfigOf(readVariables(BillingVariables, env, problems), production, problems));
}

/** Billing's configuration; `kit.requireRealProviders`: no stand-in for a paid provider. */
export function billingConfigFrom(env: NodeJS.ProcessEnv, problems: ConfigProblems, kit: { publicUrl: string; requireRealProviders: boolean }): BillingConfig {
  const vars = readVariables(BillingVariables, env, problems);
  return {
    payments: paymentsConfigOf(vars, kit.requireRealProviders, problems),
    signupWaitMs: vars.BILLING_SIGNUP_WAIT_MS,
    limits: {
      ordersPerUserPerHour: vars.BILLING_ORDERS_PER_USER_PER_HOUR,
      promoOrdersPerIpPerHour: vars.BILLING_PROMO_ORDERS_PER_IP_PER_HOUR,
    },
    mail: mailConfigFrom(vars, problems, kit),
  };
}
