import type { Knex } from 'knex';
import { unauthorized } from '@leadforge/kit';

/**
 * One lock per account, taken by every transaction that stores something of the user (a search, a
 * webhook endpoint) and by the erasure of the account: a write either commits before the erasure,
 * which then removes it, or sees the account erased and stores nothing.
 */
async function lockAccount(trx: Knex.Transaction, userId: string): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`leads-account:${userId}`]);
}

/** Locks the account for a write of the user's; 401 when its data has been erased (a request let in before the deletion). */
export async function lockLiveAccount(trx: Knex.Transaction, userId: string): Promise<void> {
  await lockAccount(trx, userId);
  if (await trx('erased_accounts').where({ user_id: userId }).first()) throw unauthorized('This account is not active', 'account_inactive');
}

/** Marks the account erased, under its lock: the erasure that follows in this transaction sees every earlier write. */
export async function markAccountErased(trx: Knex.Transaction, userId: string): Promise<void> {
  await lockAccount(trx, userId);
  await trx('erased_accounts').insert({ user_id: userId }).onConflict('user_id').ignore();
}
