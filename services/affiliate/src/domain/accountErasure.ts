import type { Knex } from 'knex';
import { EMAIL_SHA256_SQL } from '@leadforge/contracts';

/**
 * A deleted account's name and addresses leave the affiliate records (its code, referrals and
 * commissions stay, keyed by the user id alone). The canonical email becomes a placeholder unique to
 * the user, so it can never match another account's in the self-referral check, and who paid its
 * purchases is forgotten. With the address's
 * hash (`account.deleted`), applications sent from that address while signed out go too, and the
 * PayPal address of payouts already sent (a batch still being submitted keeps it until it is).
 */
export async function eraseAccount(trx: Knex.Transaction, userId: string, emailSha256?: string): Promise<void> {
  await trx('affiliates').where({ user_id: userId }).update({ name: '', email: '', canonical_email: `deleted:${userId}`, paypal_email: null });
  await trx('affiliate_applications').where({ user_id: userId }).update({ name: '', email: '', website: null, message: null, remote_ip: null });
  await trx('signups').where({ user_id: userId }).delete();
  await trx('purchases').where({ user_id: userId }).update({ payer_keys: null });
  if (!emailSha256) return;
  await trx('affiliate_applications').whereNull('user_id').whereRaw(`${EMAIL_SHA256_SQL} = ?`, [emailSha256]).delete();
  await trx('payout_items').where({ referrer_id: userId })
    .whereIn('batch_id', trx('payout_batches').whereIn('status', ['submitted', 'failed', 'empty']).select('id'))
    .update({ receiver: '' });
}
