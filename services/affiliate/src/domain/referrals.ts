import type { Knex } from 'knex';
import type { EventData } from '@leadforge/contracts';
import { ensureAffiliate, findAffiliateByCode } from './affiliates.ts';
import { canonicalEmail } from './canonicalEmail.ts';
import { checkReferralToken } from './referralTokens.ts';
import { lockBuyer } from './buyerLock.ts';
import { settleCommissionsOf } from './commissions.ts';

export type RejectionReason = 'self_referral' | 'expired' | 'bad_signature' | 'unknown_code' | 'malformed';

export interface ReferralOutcome {
  status: 'attributed' | 'rejected';
  reason?: RejectionReason;
  referrerId?: string;
}

/**
 * user.registered: every user gets a referral code; a registration that carried a referral token
 * is attributed to its referrer when the token is genuine, the visit was at most 60 days before
 * the registration, and the new account is not the referrer's own (same mailbox). Otherwise the
 * attempt is kept with the reason, for support, and attributes nothing.
 */
export async function recordRegistration(trx: Knex.Transaction, secret: string, data: EventData<'user.registered'>): Promise<ReferralOutcome | undefined> {
  await ensureAffiliate(trx, { id: data.user_id, name: data.name, email: data.email });
  if (!data.referral_code) return undefined;

  const check = checkReferralToken(secret, data.referral_code, new Date(data.created_at));
  const referrer = check.code ? await findAffiliateByCode(trx, check.code) : undefined;
  let outcome: ReferralOutcome;
  if (!check.ok) outcome = { status: 'rejected', reason: check.reason, referrerId: referrer?.user_id };
  else if (!referrer) outcome = { status: 'rejected', reason: 'unknown_code' };
  else if (referrer.user_id === data.user_id || referrer.canonical_email === canonicalEmail(data.email)) {
    outcome = { status: 'rejected', reason: 'self_referral', referrerId: referrer.user_id };
  } else outcome = { status: 'attributed', referrerId: referrer.user_id };

  await lockBuyer(trx, data.user_id);
  const inserted = await trx('referrals').insert({
    referred_user_id: data.user_id,
    referrer_id: outcome.referrerId ?? null,
    referral_code: (check.code ?? data.referral_code).slice(0, 64),
    status: outcome.status,
    rejection_reason: outcome.reason ?? null,
    visited_at: check.visitedAt ?? null,
    registered_at: data.created_at,
  }).onConflict('referred_user_id').ignore().returning('referred_user_id');
  if (inserted.length && outcome.status === 'attributed') await settleCommissionsOf(trx, data.user_id);
  return outcome;
}
