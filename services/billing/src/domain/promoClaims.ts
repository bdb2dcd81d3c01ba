import crypto from 'node:crypto';
import type { Db } from '@leadforge/kit/db';
import { PROMO_CBC500, type PromoClaimOutcome, type PromoClaimResponse } from '@leadforge/contracts';
import type { Trx } from './ledger.ts';
import { grantPurchase, type PurchaseRow } from './purchases.ts';

export type ClaimOutcome = Exclude<PromoClaimOutcome, 'processing' | 'not_claimed'>;

/** A promo order's claim token (handed to the paying browser) and the hash billing keeps of it. */
export function newClaimToken(): { token: string; hash: string } {
  const token = crypto.randomBytes(32).toString('base64url');
  return { token, hash: claimHashOf(token) };
}

/** SHA-256 hex, as auth puts it on `user.registered` (the token itself never travels on the bus). */
export const claimHashOf = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

const sameHash = (a: string, b: string) => a.length === b.length && crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Gives a paid (or paying) promo order to the account that registered with it: the order's owner
 * is set once, under the row lock, so of two registrations naming the same order exactly one wins.
 * The 500 credits follow at once when the payment is complete, else when its capture completes.
 * The order id is in the register link, so it is no credential: the registration must also present
 * the claim token the paying browser was given (orders from before claim tokens carry none).
 */
export async function claimPromoOrder(trx: Trx, userId: string, orderId: string, claimHash?: string): Promise<ClaimOutcome> {
  const p: PurchaseRow | undefined = await trx('purchases').where({ provider_order_id: orderId, kind: 'promo' }).forUpdate().first();
  if (!p) return 'not_found';
  if (p.user_id === userId) return p.status === 'completed' ? 'claimed' : 'claimed_pending_payment';
  if (p.user_id) return 'already_claimed';
  if (p.status !== 'completed' && p.status !== 'pending') return 'not_paid';
  if (p.claim_token_hash && !(claimHash && sameHash(claimHash, p.claim_token_hash))) return 'claim_refused';
  const [claimed]: PurchaseRow[] = await trx('purchases').where({ id: p.id }).whereNull('user_id')
    .update({ user_id: userId, claimed_at: trx.fn.now() }).returning('*');
  await grantPurchase(trx, claimed);
  return claimed.status === 'completed' ? 'claimed' : 'claimed_pending_payment';
}

const MESSAGES: Record<PromoClaimOutcome, string> = {
  processing: 'Your account is still being set up. Check again in a moment.',
  claimed: `CBC Special Promo applied: ${PROMO_CBC500.credits} credits were added to your account.`,
  claimed_pending_payment: `PayPal is still confirming your promo payment. The ${PROMO_CBC500.credits} credits will be added as soon as it clears.`,
  already_claimed: 'This promo order has already been used by another account. Your account was created with the 10 free signup credits. If you paid for this order yourself, please contact support.',
  not_found: 'We could not find this promo order. Your account was created with the 10 free signup credits. If you were charged, please contact support.',
  not_paid: 'This promo order has not been paid, so the promo credits were not added. Your account was created with the 10 free signup credits.',
  not_claimed: 'This promo order was not used when this account was created. Promo orders can only be applied when registering a new account.',
  claim_refused: 'This promo order can only be applied from the browser it was paid in. Your account was created with the 10 free signup credits. If you paid for this order, please contact support with your order id.',
};

/** What became of the promo order an account registered with, for the register page to tell the user. */
export async function promoOutcomeFor(db: Db, userId: string, orderId: string): Promise<PromoClaimResponse> {
  const answer = (outcome: PromoClaimOutcome, credits = 0): PromoClaimResponse => ({ order_id: orderId, outcome, credits, message: MESSAGES[outcome] });
  const signup = await db('signups').where({ user_id: userId }).first();
  if (!signup) return answer('processing');
  const order: PurchaseRow | undefined = await db('purchases').where({ provider_order_id: orderId, kind: 'promo' }).first();
  if (order && order.user_id === userId) {
    return order.status === 'completed' || order.status === 'refunded' ? answer('claimed', order.credits) : answer('claimed_pending_payment');
  }
  if (signup.promo_order_id !== orderId) return answer('not_claimed');
  return answer(signup.promo_outcome as PromoClaimOutcome);
}
