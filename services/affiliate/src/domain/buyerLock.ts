import type { Knex } from 'knex';

/**
 * Serialises what is applied for one buyer. A referred signup (user.registered) and the buyer's
 * purchases (purchase.completed / purchase.refunded) come on different topics and are applied at
 * the same time; each looks for the other's row to create the commission, so without this lock both
 * can commit without seeing the other and the commission is never created. Held to the end of the
 * transaction.
 */
export async function lockBuyer(trx: Knex.Transaction, userId: string): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`affiliate.buyer:${userId}`]);
}
