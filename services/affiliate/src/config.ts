import { ConfigError, readInt, readVar } from '@leadforge/kit/config';

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
export function loadPayoutsConfig(env: NodeJS.ProcessEnv, production: boolean): PayoutsConfig {
  const hint = 'PayPal REST credentials for affiliate payouts';
  const clientId = readVar(env, 'PAYPAL_CLIENT_ID', { required: production, hint });
  const clientSecret = readVar(env, 'PAYPAL_CLIENT_SECRET', { required: production, hint });
  if (!clientId || !clientSecret) {
    if (clientId || clientSecret) throw new ConfigError(clientId ? 'PAYPAL_CLIENT_SECRET' : 'PAYPAL_CLIENT_ID', 'is required when the other PayPal credential is set');
    return {};
  }
  const apiBase = readVar(env, 'PAYPAL_API_BASE', {
    default: production ? 'https://api-m.paypal.com' : 'https://api-m.sandbox.paypal.com',
    pattern: /^https?:\/\/[^\s]+$/,
    hint: 'an http(s) URL',
  })!;
  return { paypal: { apiBase, clientId, clientSecret } };
}

/** `production`: no stand-in for a paid provider (the kit's requireRealProviders). */
export function loadAffiliateConfig(env: NodeJS.ProcessEnv, production: boolean): AffiliateConfig {
  const referralSecret = readVar(env, 'AFFILIATE_REFERRAL_SECRET');
  if (referralSecret && referralSecret.length < 32) throw new ConfigError('AFFILIATE_REFERRAL_SECRET', 'must be at least 32 characters');
  return {
    referralSecret,
    payouts: loadPayoutsConfig(env, production),
    limits: {
      applyPerIpPerHour: readInt(env, 'AFFILIATE_APPLY_PER_IP_PER_HOUR', 5, 1),
      visitsPerIpPerMinute: readInt(env, 'AFFILIATE_VISITS_PER_IP_PER_MINUTE', 30, 1),
    },
    maturingSweepMs: readInt(env, 'AFFILIATE_MATURING_SWEEP_MS', 60_000, 1000),
  };
}
