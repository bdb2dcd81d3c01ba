import type { Db } from '@leadforge/kit/db';
import { PROMO_CBC500, type EventData } from '@leadforge/contracts';
import { appendEntry, balanceOf, type Trx } from './ledger.ts';
import { claimPromoOrder, type ClaimOutcome } from './promoClaims.ts';

export const SIGNUP_CREDITS = 10;

/**
 * Welcomes a new account (from `user.registered`): 10 credits, once per account (none when auth
 * withholds them from an address that belonged to a deleted account), and the paid
 * promo order it registered with, claimed once. Runs in the consumer's transaction, so the grant,
 * the claim and the record of the event are one commit.
 */
export async function welcomeAccount(trx: Trx, user: EventData<'user.registered'>): Promise<ClaimOutcome | 'none' | 'duplicate'> {
  const orderId = user.promo_code?.toUpperCase() === PROMO_CBC500.code ? user.order_id?.trim() || null : null;
  const inserted = await trx('signups').insert({ user_id: user.user_id, promo_order_id: orderId }).onConflict('user_id').ignore().returning('user_id');
  if (inserted.length === 0) return 'duplicate';
  // An address that belonged to a deleted account registers again without a second grant.
  if (user.signup_grant !== false) {
    await appendEntry(trx, { userId: user.user_id, delta: SIGNUP_CREDITS, reason: 'signup', ref: `user:${user.user_id}`, key: `signup:${user.user_id}` });
  }
  if (user.promo_code?.toUpperCase() !== PROMO_CBC500.code) return 'none';
  const outcome: ClaimOutcome = orderId ? await claimPromoOrder(trx, user.user_id, orderId, user.promo_claim_hash) : 'not_found';
  await trx('signups').where({ user_id: user.user_id }).update({ promo_outcome: outcome });
  return outcome;
}

/**
 * The balance to show an account. A brand-new account's signup grant travels by event and may be a
 * few milliseconds behind the registration answer that asks for it: wait for it briefly (bounded)
 * rather than show 0 credits. Accounts known to have no ledger are answered at once.
 */
export function displayBalances(db: Db, waitMs: number) {
  const knownEmpty = new Set<string>();
  return async function balanceForDisplay(userId: string): Promise<number> {
    const now = await balanceOf(db, userId);
    if (now !== undefined || waitMs <= 0 || knownEmpty.has(userId)) return now ?? 0;
    const deadline = Date.now() + waitMs;
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const later = await balanceOf(db, userId);
      if (later !== undefined) return later;
    }
    knownEmpty.add(userId);
    if (knownEmpty.size > 10_000) knownEmpty.delete(knownEmpty.values().next().value as string);
    return 0;
  };
}
