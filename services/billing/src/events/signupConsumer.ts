import type { Subscription } from '@leadforge/kit/events';
import { TOPICS } from '@leadforge/contracts';
import { welcomeAccount } from '../domain/signups.ts';
import { eraseAccountData } from '../domain/accountData.ts';
import type { BillingRuntime } from '../runtime.ts';

/**
 * `user.registered` -> the signup grant and the promo claim, once per account (idempotent consumer);
 * `account.deleted` -> the account's purchases lose their free text, its emails their address.
 */
export function consumeSignups({ ctx, mail }: BillingRuntime): Promise<Subscription> {
  return ctx.consume('billing.signups', [TOPICS.authUser], {
    'user.registered': async (data, _envelope, trx) => {
      const outcome = await welcomeAccount(trx, data);
      if (outcome !== 'none' && outcome !== 'duplicate') ctx.log.info({ userId: data.user_id, orderId: data.order_id, outcome }, 'promo order claim');
    },
    'account.deleted': async (data, _envelope, trx) => {
      await eraseAccountData(trx, data.user_id);
      await mail.eraseUser(trx, data.user_id);
    },
  });
}
