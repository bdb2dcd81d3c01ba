import { TOPICS } from '@leadforge/contracts';
import type { ServiceContext } from '@leadforge/kit/service';
import { startConsumer } from '@leadforge/kit/events';
import { eraseMessagesFrom } from '../domain/accountData.ts';

/** `account.deleted` -> the messages sent from the deleted account's address are erased. */
export function consumeAccountDeletions(ctx: ServiceContext) {
  return startConsumer({
    db: ctx.db,
    bus: ctx.bus,
    service: 'contact',
    group: 'contact.account-erasure',
    topics: [TOPICS.authUser],
    logger: ctx.log,
    handlers: {
      'account.deleted': async (data, _envelope, trx) => {
        const erased = await eraseMessagesFrom(trx, data.email_sha256);
        if (erased) ctx.log.info({ userId: data.user_id, erased }, 'contact messages of a deleted account erased');
      },
    },
  });
}
