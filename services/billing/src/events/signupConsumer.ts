import type { Subscription } from '@leadforge/kit/events';
import { TOPICS } from '@leadforge/contracts';
import { welcomeAccount } from '../domain/signups.ts';
import { eraseAccountData } from '../domain/accountData.ts';
import type { BillingRuntime } from '../runtime.ts';

/**
 * `user.registered` -> the signup grant and the promo claim, once per account (idempotent consumer);
 * `account.deleted` -> the account's purchases lose their free text.
 */
export function consumeSignups({ ctx }: BillingRuntime): Promise<Subscription> {
  return ctx.consume('billing.signups', [TOPICS.authUser], {
    'user.registered': async (data, _envelope, trx) => {
      const outcome = await welcomeAccount(trx, data);
      if (outcome !== 'none' && outcome !== 'duplicate') ctx.log.info({ userId: data.user_id, orderId: data.order_id, outcome }, 'promo order claim');
    },
    'account.deleted': (data, _envelope, trx) => eraseAccountData(trx, data.user_id),
  });
}
