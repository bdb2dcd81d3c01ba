import type { ServiceContext } from '@leadforge/kit/service';
import { startConsumer } from '@leadforge/kit/events';
import { TOPICS } from '@leadforge/contracts';
import { welcomeAccount } from '../domain/signups.ts';
import { eraseAccountData } from '../domain/accountData.ts';

/**
 * `user.registered` -> the signup grant and the promo claim, once per account (idempotent consumer);
 * `account.deleted` -> the account's purchases lose their free text.
 */
export function consumeSignups(ctx: ServiceContext) {
  return startConsumer({
    db: ctx.db,
    bus: ctx.bus,
    service: 'billing',
    group: 'billing.signups',
    topics: [TOPICS.authUser],
    logger: ctx.log,
    handlers: {
      'user.registered': async (data, _envelope, trx) => {
        const outcome = await welcomeAccount(trx, data);
        if (outcome !== 'none' && outcome !== 'duplicate') ctx.log.info({ userId: data.user_id, orderId: data.order_id, outcome }, 'promo order claim');
      },
      'account.deleted': (data, _envelope, trx) => eraseAccountData(trx, data.user_id),
    },
  });
}
