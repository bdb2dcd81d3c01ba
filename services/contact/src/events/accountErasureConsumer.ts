import { TOPICS } from '@leadforge/contracts';
import type { Subscription } from '@leadforge/kit/events';
import { eraseMessagesFrom } from '../domain/accountData.ts';
import type { ContactRuntime } from '../runtime.ts';

/** `account.deleted` -> the messages sent from the deleted account's address are erased. */
export function consumeAccountDeletions({ ctx }: ContactRuntime): Promise<Subscription> {
  return ctx.consume('contact.account-erasure', [TOPICS.authUser], {
    'account.deleted': async (data, _envelope, trx) => {
      const erased = await eraseMessagesFrom(trx, data.email_sha256);
      if (erased) ctx.log.info({ userId: data.user_id, erased }, 'contact messages of a deleted account erased');
    },
  });
}
