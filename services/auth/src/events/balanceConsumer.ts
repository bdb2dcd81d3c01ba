import { TOPICS } from '@leadforge/contracts';
import type { Subscription } from '@leadforge/kit/events';
import type { AuthRuntime } from '../runtime.ts';

/** `credits.changed` -> the last balance auth saw, shown when billing does not answer in time. */
export function startBalanceConsumer({ ctx }: AuthRuntime): Promise<Subscription> {
  return ctx.consume('auth.balances', [TOPICS.billingCredits], {
    'credits.changed': async (data, _envelope, trx) => {
      await trx('last_seen_balances')
        .insert({ user_id: data.user_id, balance: data.balance, updated_at: trx.fn.now() })
        .onConflict('user_id')
        .merge();
    },
  });
}
