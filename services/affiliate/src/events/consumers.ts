import type { Subscription } from '@leadforge/kit/events';
import { TOPICS } from '@leadforge/contracts';
import { recordPurchase, recordRefund } from '../domain/commissions.ts';
import { eraseAccount } from '../domain/accountErasure.ts';
import { recordRegistration } from '../domain/referrals.ts';
import type { AffiliateRuntime } from '../runtime.ts';

/**
 * Registrations (codes and referrals) and purchases (commissions and clawbacks). Each event is
 * applied once (kit_handled_events); a purchase re-announced under a new event id still meets the
 * one-commission-per-purchase constraint, so nothing is ever paid twice.
 */
export function startAffiliateConsumers(rt: AffiliateRuntime): Promise<Subscription> {
  const { ctx } = rt;
  return ctx.consume('affiliate.referrals', [TOPICS.authUser, TOPICS.billingPurchase], {
    'user.registered': async (data, _envelope, trx) => {
      const outcome = await recordRegistration(trx, rt.referralSecret, data);
      if (outcome?.status === 'rejected') ctx.log.info({ userId: data.user_id, reason: outcome.reason }, 'referral not attributed');
    },
    'user.status_changed': async (data, _envelope, trx) => {
      if (data.status === 'deleted') await eraseAccount(trx, data.user_id);
    },
    'account.deleted': (data, _envelope, trx) => eraseAccount(trx, data.user_id, data.email_sha256),
    'purchase.completed': (data, _envelope, trx) => recordPurchase(trx, data),
    'purchase.refunded': (data, _envelope, trx) => recordRefund(trx, data),
  });
}
