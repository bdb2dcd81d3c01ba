import type { ServiceContext } from '@leadforge/kit/service';
import { clockOf, WorkLoop, type Clock } from '@leadforge/kit/work';
import { loadPayoutsConfig, type AffiliateConfig, type PayoutsConfig } from './config.ts';
import { matureCommissions } from './domain/commissions.ts';
import { loadReferralSecret } from './domain/referralTokens.ts';
import { paypalPayouts, testPayouts, type PayoutsProvider } from './paypal/payoutsProvider.ts';

/** What the affiliate service's routes and consumers share, built once per start. */
export interface AffiliateRuntime {
  ctx: ServiceContext;
  /** Signs and checks referral tokens (the lf_ref cookie's value). */
  referralSecret: string;
  payouts: PayoutsProvider;
  limits: { applyPerIpPerHour: number; visitsPerIpPerMinute: number };
  /** Commissions leave their refund window on their own; reads and payouts also mature them. */
  maturing: WorkLoop;
  /** The time the refund window is judged by (CLOCK_FILE moves it in tests). */
  clock: Clock;
}

export async function buildRuntime(ctx: ServiceContext, config: AffiliateConfig): Promise<AffiliateRuntime> {
  const clock = clockOf(ctx.config.clockFile);
  return {
    ctx,
    clock,
    referralSecret: await loadReferralSecret(ctx.db, config.referralSecret),
    payouts: providerOf(config.payouts),
    limits: config.limits,
    maturing: new WorkLoop({
      name: 'affiliate commission maturing',
      logger: ctx.log,
      step: async () => { await matureCommissions(ctx.db, clock()); },
      pollMs: config.maturingSweepMs,
      retry: { baseMs: 1_000, maxMs: config.maturingSweepMs },
    }),
  };
}

const providerOf = (config: PayoutsConfig): PayoutsProvider => (config.paypal ? paypalPayouts(config.paypal) : testPayouts);

/** The payouts provider the environment configures (see loadPayoutsConfig). */
export function payoutsProvider(env: NodeJS.ProcessEnv, production: boolean): PayoutsProvider {
  return providerOf(loadPayoutsConfig(env, production));
}
