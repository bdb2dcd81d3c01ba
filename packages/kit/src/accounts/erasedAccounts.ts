import type { Knex } from 'knex';

/**
 * Account erasure against writes already on their way: each service that keeps a user's data has an
 * `erased_accounts` table (ids only). Every transaction that stores something of the user takes the
 * account's lock and checks the table; the erasure takes the same lock and marks the account first.
 * A write then either commits before the erasure, which removes it, or sees the account erased and
 * stores nothing.
 */
async function lockAccount(trx: Knex.Transaction, service: string, userId: string): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`${service}-account:${userId}`]);
}

/** Locks the account for a write of the user's; answers whether its data has been erased (store nothing then). */
export async function lockAccountForWrite(trx: Knex.Transaction, service: string, userId: string): Promise<{ erased: boolean }> {
  await lockAccount(trx, service, userId);
  return { erased: Boolean(await trx('erased_accounts').where({ user_id: userId }).first()) };
}

/** Marks the account erased, under its lock: the erasure that follows in this transaction sees every earlier write. */
export async function markAccountErased(trx: Knex.Transaction, service: string, userId: string): Promise<void> {
  await lockAccount(trx, service, userId);
  await trx('erased_accounts').insert({ user_id: userId }).onConflict('user_id').ignore();
}
