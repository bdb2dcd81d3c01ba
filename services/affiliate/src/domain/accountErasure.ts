import type { Knex } from 'knex';

/**
 * A deleted account's name and addresses leave the affiliate records (its code, referrals and
 * commissions stay, keyed by the user id alone). The canonical email becomes a placeholder unique to
 * the user, so it can never match another account's in the self-referral check.
 */
export async function eraseAccount(trx: Knex.Transaction, userId: string): Promise<void> {
  await trx('affiliates').where({ user_id: userId }).update({ name: '', email: '', canonical_email: `deleted:${userId}` });
  await trx('affiliate_applications').where({ user_id: userId }).update({ name: '', email: '', website: null, message: null, remote_ip: null });
}
