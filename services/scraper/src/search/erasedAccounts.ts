import type { Knex } from 'knex';
import { lockUntilCommit } from '@leadforge/kit/db';

/**
 * A deleted account's searches against requests already on their way: recording a search takes the
 * account's lock and checks `erased_accounts` (ids only); the erasure takes the same lock and marks the
 * account first, so a search request that arrives after the deletion is never stored.
 */
const lockAccount = (trx: Knex.Transaction, userId: string) => lockUntilCommit(trx, `scraper-account:${userId}`);

/** Locks the account for recording a search of the user's; answers whether its data has been erased (store nothing then). */
export async function lockAccountForWrite(trx: Knex.Transaction, userId: string): Promise<{ erased: boolean }> {
  await lockAccount(trx, userId);
  return { erased: Boolean(await trx('erased_accounts').where({ user_id: userId }).first()) };
}

/** Marks the account erased, under its lock: the erasure that follows in this transaction sees every earlier write. */
export async function markAccountErased(trx: Knex.Transaction, userId: string): Promise<void> {
  await lockAccount(trx, userId);
  await trx('erased_accounts').insert({ user_id: userId }).onConflict('user_id').ignore();
}
