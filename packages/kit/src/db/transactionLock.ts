import type { Knex } from 'knex';

/** Holds a PostgreSQL advisory lock named by `key` until the transaction ends (commit or rollback). */
export async function lockUntilCommit(trx: Knex.Transaction, key: string): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [key]);
}
