import type { Knex } from 'knex';
import { TOPICS } from '@leadforge/contracts';
import type { Subscription } from '@leadforge/kit/events';
import { markAccountErased } from '../domain/erasedAccounts.ts';
import type { LeadsRuntime } from '../runtime.ts';
import { eraseEndpointsOf } from '../webhooks/webhookEndpoints.ts';

/**
 * A deleted account's searches go with their leads and live feed: what a user searched for (the
 * industry and place) is theirs, and the contacts found were gathered for them alone. The figures
 * of those searches stay where they are kept as figures (billing's ledger, the admin roll-ups).
 * A search still running when the account is deleted is dropped too: the scraper's later results
 * find no search and are ignored.
 */
export async function eraseSearchesOf(trx: Knex.Transaction, userId: string): Promise<number> {
  const searches = trx('lead_searches').where({ user_id: userId }).select('id');
  await trx('search_feed').whereIn('search_id', searches).delete();
  await trx('leads').whereIn('search_id', searches).delete();
  // Which businesses the user received (not charged twice) is a record of what they bought.
  await trx('owned_businesses').where({ user_id: userId }).delete();
  // Their events already relayed (search.requested names the industry and place) leave the outbox's history.
  await trx('kit_outbox').whereIn('key', trx('lead_searches').where({ user_id: userId }).select(trx.raw('id::text'))).whereNotNull('published_at').delete();
  return trx('lead_searches').where({ user_id: userId }).delete();
}

/**
 * `account.deleted` -> the account's searches, webhook endpoints, monitors and emails' address are erased, and the account is
 * marked erased so a request let in before the deletion stores nothing afterwards.
 */
export function consumeAccountDeletions({ ctx, mail }: LeadsRuntime): Promise<Subscription> {
  return ctx.consume('leads.account-erasure', [TOPICS.authUser], {
    'account.deleted': async (data, _envelope, trx) => {
      await markAccountErased(trx, data.user_id);
      const erased = await eraseSearchesOf(trx, data.user_id);
      await eraseEndpointsOf(trx, data.user_id);
      // Their monitors (and, with them, their runs) go too: what they watched for is theirs.
      await trx('monitors').where({ user_id: data.user_id }).delete();
      await trx('search_ready_pending').where({ user_id: data.user_id }).delete();
      await mail.eraseUser(trx, data.user_id);
      if (erased) ctx.log.info({ userId: data.user_id, erased }, 'searches of a deleted account erased');
    },
  });
}
