import type { Knex } from 'knex';
import { lockUntilCommit } from '@leadforge/kit/db';
import { unauthorized } from '@leadforge/kit/http';

/**
 * Account erasure against writes already on their way: every transaction that stores something of a
 * user (a search, a webhook endpoint, a lead) takes the account's lock and checks `erased_accounts`
 * (ids only); the erasure takes the same lock and marks the account first. A write then either
 * commits before the erasure, which removes it, or sees the account erased and stores nothing.
 */
const lockAccount = (trx: Knex.Transaction, userId: string) => lockUntilCommit(trx, `leads-account:${userId}`);

/** Locks the account for a write of the user's (a search, a webhook endpoint); 401 when its data has been erased (a request let in before the deletion). */
export async function lockLiveAccount(trx: Knex.Transaction, userId: string): Promise<void> {
  await lockAccount(trx, userId);
  if (await trx('erased_accounts').where({ user_id: userId }).first()) throw unauthorized('This account is not active', 'account_inactive');
}

/** Marks the account erased, under its lock: the erasure that follows in this transaction sees every earlier write. */
export async function markAccountErased(trx: Knex.Transaction, userId: string): Promise<void> {
  await lockAccount(trx, userId);
  await trx('erased_accounts').insert({ user_id: userId }).onConflict('user_id').ignore();
}
