import type { ServiceContext } from '@leadforge/kit/service';
import { ConfigError, readInt, readVar } from '@leadforge/kit/config';
import { loadReferralSecret } from './domain/referralTokens.ts';
import { paypalPayouts, testPayouts, type PayoutsProvider } from './paypal/payoutsProvider.ts';

/** What the affiliate service's routes and consumers share, built once per start. */
export interface AffiliateRuntime {
  ctx: ServiceContext;
  /** Signs and checks referral tokens (the lf_ref cookie's value). */
  referralSecret: string;
  payouts: PayoutsProvider;
  limits: { applyPerIpPerHour: number; visitsPerIpPerMinute: number };
  /** How often pending commissions are checked for the end of their refund window. */
  maturingSweepMs: number;
}

export async function buildRuntime(ctx: ServiceContext): Promise<AffiliateRuntime> {
  const env = ctx.env;
  const configuredSecret = readVar(env, 'AFFILIATE_REFERRAL_SECRET');
  if (configuredSecret && configuredSecret.length < 32) throw new ConfigError('AFFILIATE_REFERRAL_SECRET', 'must be at least 32 characters');
  return {
    ctx,
    referralSecret: await loadReferralSecret(ctx.db, configuredSecret),
    payouts: payoutsProvider(env, ctx.config.requireRealProviders),
    limits: {
      applyPerIpPerHour: readInt(env, 'AFFILIATE_APPLY_PER_IP_PER_HOUR', 5, 1),
      visitsPerIpPerMinute: readInt(env, 'AFFILIATE_VISITS_PER_IP_PER_MINUTE', 30, 1),
    },
    maturingSweepMs: readInt(env, 'AFFILIATE_MATURING_SWEEP_MS', 60_000, 1000),
  };
}

/** PayPal Payouts with credentials; without them, outside production, the labelled test stand-in. */
export function payoutsProvider(env: NodeJS.ProcessEnv, production: boolean): PayoutsProvider {
  const hint = 'PayPal REST credentials for affiliate payouts';
  const clientId = readVar(env, 'PAYPAL_CLIENT_ID', { required: production, hint });
  const clientSecret = readVar(env, 'PAYPAL_CLIENT_SECRET', { required: production, hint });
  if (!clientId || !clientSecret) {
    if (clientId || clientSecret) throw new ConfigError(clientId ? 'PAYPAL_CLIENT_SECRET' : 'PAYPAL_CLIENT_ID', 'is required when the other PayPal credential is set');
    return testPayouts;
  }
  const apiBase = readVar(env, 'PAYPAL_API_BASE', {
    default: production ? 'https://api-m.paypal.com' : 'https://api-m.sandbox.paypal.com',
    pattern: /^https?:\/\/[^\s]+$/,
    hint: 'an http(s) URL',
  })!;
  return paypalPayouts({ apiBase, clientId, clientSecret });
}
