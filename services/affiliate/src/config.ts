import { Type, type Static } from 'typebox';
import { collectConfig, readVariables, Variable, type ConfigProblems } from '@leadforge/kit/config';

/** Every variable the affiliate service reads besides the kit's. */
export const AffiliateVariables = Type.Object({
  AFFILIATE_REFERRAL_SECRET: Variable.string({ description: 'signs referral tokens (the `lf_ref` cookie), at least 32 characters', defaultText: 'generated once, kept in affiliate\'s database', secret: true }),
  PAYPAL_CLIENT_ID: Variable.string({ description: 'PayPal REST app for affiliate payouts', defaultText: 'the labelled test payouts', secret: true, production: true, example: 'paypal-client-id' }),
  PAYPAL_CLIENT_SECRET: Variable.string({ description: 'its secret', defaultText: 'unset', secret: true, production: true, example: 'paypal-client-secret' }),
  PAYPAL_API_BASE: Variable.string({ description: 'PayPal REST base of the payouts', defaultText: '`https://api-m.paypal.com` in production, else `https://api-m.sandbox.paypal.com`', base: true }),
  AFFILIATE_APPLY_PER_IP_PER_HOUR: Variable.integer({ description: 'affiliate applications per address per hour', default: 5, minimum: 1 }),
  AFFILIATE_VISITS_PER_IP_PER_MINUTE: Variable.integer({ description: 'referral visits counted per address per minute', default: 30, minimum: 1 }),
  AFFILIATE_MATURING_SWEEP_MS: Variable.integer({ description: 'how often pending commissions are checked for the end of their refund window', default: 60_000, minimum: 1000 }),
});
type AffiliateVariables = Static<typeof AffiliateVariables>;

/** PayPal REST credentials for payouts; none (outside production) means the test stand-in. */
export interface PayoutsConfig {
  paypal?: { apiBase: string; clientId: string; clientSecret: string };
}

/** What the affiliate service reads from the environment, checked once at start. */
export interface AffiliateConfig {
  /** AFFILIATE_REFERRAL_SECRET; unset, the service keeps a generated one in its database. */
  referralSecret?: string;
  payouts: PayoutsConfig;
  limits: { applyPerIpPerHour: number; visitsPerIpPerMinute: number };
  /** How often pending commissions are checked for the end of their refund window. */
  maturingSweepMs: number;
}

/** PayPal Payouts with credentials; without them, outside production, the labelled test stand-in. */
function payoutsConfigOf(vars: AffiliateVariables, production: boolean, problems: ConfigProblems): PayoutsConfig {
  const clientId = vars.PAYPAL_CLIENT_ID;
  const clientSecret = vars.PAYPAL_CLIENT_SECRET;
  if (!clientId || !clientSecret) {
    const hint = 'PayPal REST credentials for affiliate payouts';
    if (production) {
      if (!clientId) problems.add('PAYPAL_CLIENT_ID', `is required (${hint})`);
      if (!clientSecret) problems.add('PAYPAL_CLIENT_SECRET', `is required (${hint})`);
    } else if (clientId || clientSecret) {
      problems.add(clientId ? 'PAYPAL_CLIENT_SECRET' : 'PAYPAL_CLIENT_ID', 'is required when the other PayPal credential is set');
    }
    return {};
  }
  const apiBase = vars.PAYPAL_API_BASE ?? (production ? 'https://api-m.paypal.com' : 'https://api-m.sandbox.paypal.com');
  return { paypal: { apiBase, clientId, clientSecret } };
}

/** The affiliate service's configuration; `kit.requireRealProviders`: no stand-in for a paid provider. */
export function affiliateConfigFrom(env: NodeJS.ProcessEnv, problems: ConfigProblems, kit: { requireRealProviders: boolean }): AffiliateConfig {
  const vars = readVariables(AffiliateVariables, env, problems);
  const referralSecret = vars.AFFILIATE_REFERRAL_SECRET;
  if (referralSecret && referralSecret.length < 32) problems.add('AFFILIATE_REFERRAL_SECRET', 'must be at least 32 characters');
  return {
    referralSecret,
    payouts: payoutsConfigOf(vars, kit.requireRealProviders, problems),
    limits: {
      applyPerIpPerHour: vars.AFFILIATE_APPLY_PER_IP_PER_HOUR,
      visitsPerIpPerMinute: vars.AFFILIATE_VISITS_PER_IP_PER_MINUTE,
    },
    maturingSweepMs: vars.AFFILIATE_MATURING_SWEEP_MS,
  };
}

/** The payouts' part alone, every problem thrown together. */
export function loadPayoutsConfig(env: NodeJS.ProcessEnv, production: boolean): PayoutsConfig {
  return collectConfig((problems) => payoutsConfigOf(readVariables(AffiliateVariables, env, problems), production, problems));
}
